/**
 * The rows both stores read, in their column names, and how each becomes a record of the Store
 * interface. The stores differ only in how structured columns arrive: SQLite hands back JSON
 * text, PostgreSQL decoded jsonb and arrays; `decoded` takes either.
 */
import type { DecodedData } from './decoded-data.js';
import type { AppRecord, AuthCode, Credentials, TokenRecord } from './auth-store.js';
import type { SchemaVersionRecord } from './admin-store.js';
import type { StoredObject } from './graph-store.js';

/** A structured column: already decoded, or the JSON text of it. */
export type Structured<T> = T | string;

export interface ObjectRow {
  id: number;
  type: string;
  owner: number | null;
  created_time: number;
  updated_time: number;
  data: Structured<Record<string, unknown>>;
}

export interface AppRow {
  id: number;
  name: string;
  secret: string;
  id_key: string;
  id_tag: number;
  /** A boolean, or SQLite's 0 and 1. */
  require_proof: boolean | number;
  business_id: number | null;
  created_time: number;
  redirect_uris: Structured<string[]>;
  api_version: string | null;
}

export interface TokenRow {
  hash: string;
  kind: 'user' | 'app';
  app_id: number;
  user_id: number | null;
  scopes: Structured<string[]>;
  issued_at: number;
  expires_at: number;
  page_id: number | null;
}

export interface CredentialsRow {
  user_id: number;
  email: string;
  password_hash: string;
}

export interface AuthCodeRow {
  hash: string;
  app_id: number;
  user_id: number;
  redirect_uri: string;
  scopes: Structured<string[]>;
  expires_at: number;
}

export function decoded<T>(value: Structured<T>): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/** With `memo`, JSON text the memo saw for this object before is not parsed again. */
export function toStoredObject(row: ObjectRow, memo?: DecodedData): StoredObject {
  return {
    id: row.id,
    type: row.type,
    owner: row.owner,
    createdTime: row.created_time,
    updatedTime: row.updated_time,
    data: memo !== undefined && typeof row.data === 'string' ? memo.decode(row.id, row.data) : decoded(row.data),
  };
}

export function toAppRecord(row: AppRow): AppRecord {
  return {
    id: row.id,
    name: row.name,
    secret: row.secret,
    idKey: row.id_key,
    idTag: Number(row.id_tag),
    requireProof: Boolean(row.require_proof),
    businessId: row.business_id,
    createdTime: row.created_time,
    redirectUris: decoded(row.redirect_uris),
    apiVersion: row.api_version ?? null,
  };
}

export function toTokenRecord(row: TokenRow): TokenRecord {
  return {
    hash: row.hash,
    kind: row.kind,
    appId: row.app_id,
    userId: row.user_id,
    scopes: decoded(row.scopes),
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
    ...(row.page_id === null ? {} : { pageId: row.page_id }),
  };
}

export function toCredentials(row: CredentialsRow): Credentials {
  return { userId: row.user_id, email: row.email, passwordHash: row.password_hash };
}

export function toAuthCode(row: AuthCodeRow): AuthCode {
  return {
    hash: row.hash,
    appId: row.app_id,
    userId: row.user_id,
    redirectUri: row.redirect_uri,
    scopes: decoded(row.scopes),
    expiresAt: row.expires_at,
  };
}

export const SCHEMA_VERSION_COLUMNS = 'version, name, hash, text, storage, source, app_id, applied_time';

/** A schema_versions row: the record's text columns as they are, its numbers as stored. */
export type SchemaVersionRow = Pick<SchemaVersionRecord, 'version' | 'name' | 'hash' | 'text' | 'storage' | 'source'> & {
  /** PostgreSQL hands bigint back as text. */
  app_id: number | string;
  applied_time: number | string;
};

export function schemaVersionOf(row: SchemaVersionRow): SchemaVersionRecord {
  return {
    version: row.version,
    name: row.name,
    hash: row.hash,
    text: row.text,
    storage: row.storage,
    source: row.source,
    appId: Number(row.app_id),
    appliedTime: Number(row.applied_time),
  };
}
