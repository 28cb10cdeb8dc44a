import type { ObjectId } from '../../ids.js';
import {
  IdTakenError,
  SEQUENCE_ID_LIMIT,
  type AppRecord,
  type AppStore,
  type AuthStore,
  type GrantStatus,
} from '../auth-store.js';
import {
  toAppRecord,
  toAuthCode,
  toCredentials,
  toTokenRecord,
  type AppRow,
  type AuthCodeRow,
  type CredentialsRow,
  type TokenRow,
} from '../rows.js';
import { appData, createdAppRecord, grantsByUser } from '../store-results.js';
import { changedScopes } from '../write-ops.js';
import { appStatements } from './app-statements.js';
import type { PostgresDatabase } from './database.js';
import { statements } from './statements.js';
import { recordChange } from './webhook-queue.js';
import { applyOps, tokenValues } from './write-batch.js';
import { columnArrays } from './column-arrays.js';

/** The auth records on PostgreSQL: apps, tokens, grants, credentials and authorization codes. */
export function postgresAuthStore(database: PostgresDatabase): AppStore & AuthStore {
  async function getApps(ids: readonly ObjectId[]): Promise<Map<ObjectId, AppRecord>> {
    const apps = new Map<ObjectId, AppRecord>();
    if (ids.length === 0) return apps;
    for (const row of await database.rows<AppRow>(statements.selectApps, [ids])) apps.set(row.id, toAppRecord(row));
    return apps;
  }

  return {
    async createApp(app) {
      const values = [
        app.createdTime,
        JSON.stringify(appData(app)),
        app.secret,
        app.idKey,
        app.requireProof ?? false,
        app.businessId ?? null,
        JSON.stringify(app.redirectUris ?? []),
        app.idTag ?? 0,
      ];
      if (app.id === undefined) {
        const [row] = await database.rows<{ id: number }>(statements.insertApp, values);
        return createdAppRecord(row!.id, app);
      }
      const id = app.id;
      if (!Number.isSafeInteger(id) || id < SEQUENCE_ID_LIMIT) throw new RangeError(`A fixed id must be at least ${SEQUENCE_ID_LIMIT}, not ${id}`);
      await database.transaction(async (client) => {
        if ((await client.query({ ...appStatements.selectIdTaken, values: [id] })).rows.length > 0) throw new IdTakenError(id);
        try {
          await client.query({ ...appStatements.insertFixedApp, values: [...values, id] });
        } catch (error) {
          // Another process took the id meanwhile.
          if ((error as { code?: string }).code === '23505') throw new IdTakenError(id);
          throw error;
        }
      });
      return createdAppRecord(id, app);
    },

    getApps,

    async listApps() {
      return (await database.rows<AppRow>(statements.selectAllApps, [])).map(toAppRecord);
    },

    async findAppsByIdTag(idTag) {
      return (await database.rows<AppRow>(statements.selectAppsByIdTag, [idTag])).map(toAppRecord);
    },

    async updateApp(id, changes, now) {
      const redirectUris = changes.redirectUris === undefined ? null : JSON.stringify(changes.redirectUris);
      const found = await database.transaction(async (client) => {
        const values = [changes.secret ?? null, changes.requireProof ?? null, changes.businessId !== undefined, changes.businessId ?? null, redirectUris, id];
        if ((await client.query({ ...appStatements.updateApp, values })).rows.length === 0) return false;
        if (changes.data !== undefined) await applyOps(client, [{ op: 'updateObject', id, data: changes.data, updatedTime: now }]);
        return true;
      });
      return found ? (await getApps([id])).get(id) : undefined;
    },

    async deleteApp(id, now) {
      return database.transaction(async (client) => {
        await client.query({ ...statements.deleteStaleRevokedTokens, values: [now] });
        if ((await client.query({ ...appStatements.deleteAppRow, values: [id] })).rows.length === 0) return false;
        await client.query({ ...appStatements.revokeTokensOfApp, values: [id] });
        await client.query({ ...appStatements.deleteGrantsOfApp, values: [id] });
        await client.query({ ...appStatements.deleteAuthCodesOfApp, values: [id] });
        await applyOps(client, [{ op: 'deleteObject', id }]);
        await client.query({ ...appStatements.insertDeletedApp, values: [id, now] });
        return true;
      });
    },

    async getDeletedApps(ids) {
      if (ids.length === 0) return new Set();
      return new Set((await database.rows<{ id: number }>(appStatements.selectDeletedApps, [ids])).map((row) => row.id));
    },

    async saveTokens(tokens) {
      if (tokens.length > 0) await database.afterAuthChange(database.rows(statements.upsertTokens, tokenValues(tokens)));
    },

    async findToken(hash) {
      const [row] = await database.rows<TokenRow>(statements.selectToken, [hash]);
      return row === undefined ? undefined : toTokenRecord(row);
    },

    async deleteTokens(appId, userId) {
      await database.afterAuthChange(database.rows(statements.deleteTokens, [appId, userId]));
    },

    async revokeTokens(appId, userId, now) {
      await database.afterAuthChange(database.transaction(async (client) => {
        await client.query({ ...statements.deleteStaleRevokedTokens, values: [now] });
        await client.query({ ...statements.revokeTokens, values: [appId, userId] });
      }));
    },

    async findRevokedToken(hash) {
      const [row] = await database.rows<{ hash: string; app_id: number; user_id: number; expires_at: number; scopes: string[] }>(statements.selectRevokedToken, [hash]);
      return row === undefined ? undefined : { hash: row.hash, appId: row.app_id, userId: row.user_id, expiresAt: row.expires_at, scopes: row.scopes };
    },

    async setGrants(appId, entries) {
      if (entries.length === 0) return;
      // As when the entries apply one after another: a user listed twice keeps the last entry's
      // grants only, and a scope listed twice in one entry its last status.
      const latest = new Map<ObjectId, Map<string, GrantStatus>>();
      for (const { userId, grants } of entries) latest.set(userId, new Map(grants.map(({ scope, status }) => [scope, status])));
      const rows = [...latest].flatMap(([userId, grants]) => [...grants].map(([scope, status]) => ({ userId, scope, status })));
      await database.afterAuthChange(database.transaction(async (client) => {
        await client.query({ ...statements.deleteGrants, values: [appId, entries.map((entry) => entry.userId)] });
        if (rows.length === 0) return;
        await client.query({
          ...statements.insertGrants,
          values: [appId, rows.map((r) => r.userId), rows.map((r) => r.scope), rows.map((r) => r.status)],
        });
      }));
    },

    async updateGrants(appId, userId, changes, options = {}) {
      // One change per scope, the last winning, as when the changes apply one after another.
      const latest = new Map(changes.map(({ scope, status }) => [scope, status]));
      const change = options.onlyExisting ? statements.updateUserGrants : statements.upsertUserGrants;
      return database.afterAuthChange(database.transaction(async (client) => {
        const grantsNow = async () =>
          (await client.query<{ scope: string; status: GrantStatus }>({ ...statements.selectGrants, values: [appId, [userId]] })).rows.map(
            ({ scope, status }) => ({ scope, status }),
          );
        const before = options.changesAt === undefined ? [] : await grantsNow();
        if (latest.size > 0) await client.query({ ...change, values: [appId, userId, [...latest.keys()], [...latest.values()]] });
        const after = await grantsNow();
        if (options.changesAt !== undefined) {
          for (const scope of changedScopes(before, after)) await recordChange(client, userId, scope, options.changesAt, appId);
        }
        return after;
      }));
    },

    async getGrants(appId, userIds) {
      if (userIds.length === 0) return new Map();
      return grantsByUser(await database.rows<{ user_id: number; scope: string; status: GrantStatus }>(statements.selectGrants, [appId, userIds]));
    },

    async getAppGrants(appId, limit) {
      const rows = await database.rows<{ user_id: number; scope: string; status: GrantStatus }>(statements.selectAppGrants, [appId, limit + 1]);
      return rows.length > limit ? undefined : grantsByUser(rows);
    },

    async setCredentials(credentials) {
      await database.afterAuthChange(database.rows(statements.upsertCredentials, [credentials.userId, credentials.email.toLowerCase(), credentials.passwordHash]));
    },

    async findCredentialsByEmail(email) {
      const [row] = await database.rows<CredentialsRow>(statements.selectCredentialsByEmail, [email.toLowerCase()]);
      return row === undefined ? undefined : toCredentials(row);
    },

    async getCredentials(userId) {
      const [row] = await database.rows<CredentialsRow>(statements.selectCredentialsByUser, [userId]);
      return row === undefined ? undefined : toCredentials(row);
    },

    async saveAuthCodes(codes) {
      if (codes.length === 0) return;
      const columns = columnArrays(codes, (c) => c.hash, (c) => c.appId, (c) => c.userId, (c) => c.redirectUri, (c) => JSON.stringify(c.scopes), (c) => c.expiresAt);
      await database.rows(statements.insertAuthCodes, columns);
    },

    async takeAuthCode(hash) {
      const [row] = await database.rows<AuthCodeRow>(statements.deleteAuthCode, [hash]);
      return row === undefined ? undefined : toAuthCode(row);
    },
  };
}
