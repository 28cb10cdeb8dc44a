import type Database from 'better-sqlite3';
import type { AppRecord, AuthCode, Credentials, Grant, GrantUpdateOptions, UserGrants, NewApp, RevokedToken, TokenRecord, AppChanges } from '../auth-store.js';
import type { ObjectId } from '../../ids.js';
import { prepareAppStatements } from './app-statements.js';
import { changedScopes } from '../write-ops.js';
import { appData, createdAppRecord, grantsByUser } from '../store-results.js';
import { toAppRecord, toAuthCode, toCredentials, toTokenRecord } from '../rows.js';
import { SqliteGraphStore } from './graph-store.js';

/** The auth records of the SQLite store: apps, tokens, grants, credentials and authorization codes. */
export abstract class SqliteAuthStore extends SqliteGraphStore {
  private readonly insertApp: Database.Transaction<(app: NewApp) => ObjectId>;
  private readonly replaceGrants: Database.Transaction<(appId: ObjectId, entries: readonly UserGrants[]) => void>;
  private readonly changeGrants: Database.Transaction<
    (appId: ObjectId, userId: ObjectId, changes: readonly Grant[], options: GrantUpdateOptions) => Grant[]
  >;
  private readonly moveTokensToRevoked: Database.Transaction<(appId: ObjectId, userId: ObjectId, now: number) => void>;
  private readonly putTokens: Database.Transaction<(tokens: readonly TokenRecord[]) => void>;
  private readonly appStatements: ReturnType<typeof prepareAppStatements>;
  private readonly changeApp: Database.Transaction<(id: ObjectId, changes: AppChanges, now: number) => boolean>;
  private readonly removeApp: Database.Transaction<(id: ObjectId, now: number) => boolean>;
  private readonly putAuthCodes: Database.Transaction<(codes: readonly AuthCode[]) => void>;

  constructor(db: Database.Database) {
    super(db);
    this.appStatements = prepareAppStatements(db);
    this.changeApp = db.transaction((id: ObjectId, changes: AppChanges, now: number) => {
      const a = this.appStatements;
      if (a.selectAppExists.get(id) === undefined) return false;
      const redirectUris = changes.redirectUris === undefined ? null : JSON.stringify(changes.redirectUris);
      const requireProof = changes.requireProof === undefined ? null : changes.requireProof ? 1 : 0;
      const business = changes.businessId !== undefined;
      a.updateApp.run(changes.secret ?? null, requireProof, business ? 1 : 0, changes.businessId ?? null, redirectUris, id);
      if (changes.data !== undefined) this.updateObject(id, changes.data, now);
      return true;
    });
    this.removeApp = db.transaction((id: ObjectId, now: number) => {
      const a = this.appStatements;
      if (a.selectAppExists.get(id) === undefined) return false;
      a.revokeTokensOfApp.run(id);
      a.deleteTokensOfApp.run(id);
      a.deleteGrantsOfApp.run(id);
      a.deleteAuthCodesOfApp.run(id);
      a.deleteAppRow.run(id);
      this.deleteObject(id);
      a.insertDeletedApp.run(id, now);
      this.statements.deleteStaleRevokedTokens.run(now);
      return true;
    });
    this.insertApp = db.transaction((app: NewApp) => {
      const id =
        app.id === undefined
          ? this.insertObject('application', null, app.createdTime, app.createdTime, appData(app))
          : this.insertFixedObject(app.id, 'application', app.createdTime, appData(app));
      this.statements.insertApp.run(
        id,
        app.secret,
        app.idKey,
        app.idTag ?? 0,
        app.requireProof ? 1 : 0,
        app.businessId ?? null,
        app.createdTime,
        JSON.stringify(app.redirectUris ?? []),
      );
      return id;
    });
    this.replaceGrants = db.transaction((appId: ObjectId, entries: readonly UserGrants[]) => {
      for (const { userId, grants } of entries) this.replaceUserGrants(appId, userId, grants);
    });
    this.changeGrants = db.transaction((appId: ObjectId, userId: ObjectId, changes: readonly Grant[], options: GrantUpdateOptions) => {
      const grantsNow = () => this.statements.selectGrants.all(appId, JSON.stringify([userId])).map(({ scope, status }) => ({ scope, status }));
      const before = options.changesAt === undefined ? [] : grantsNow();
      for (const { scope, status } of changes) {
        if (options.onlyExisting) this.statements.updateGrantStatus.run(status, appId, userId, scope);
        else this.statements.insertGrant.run(appId, userId, scope, status);
      }
      const after = grantsNow();
      if (options.changesAt !== undefined) {
        for (const scope of changedScopes(before, after)) this.webhooks.recordChange(userId, scope, options.changesAt, appId);
      }
      return after;
    });
    this.moveTokensToRevoked = db.transaction((appId: ObjectId, userId: ObjectId, now: number) => {
      this.statements.deleteStaleRevokedTokens.run(now);
      this.statements.copyTokensToRevoked.run(appId, userId);
      this.statements.deleteTokens.run(appId, userId);
    });
    this.putTokens = db.transaction((tokens: readonly TokenRecord[]) => {
      for (const token of tokens) this.putToken(token);
    });
    this.putAuthCodes = db.transaction((codes: readonly AuthCode[]) => {
      for (const code of codes) {
        this.statements.insertAuthCode.run(code.hash, code.appId, code.userId, code.redirectUri, JSON.stringify(code.scopes), code.expiresAt);
      }
    });
  }

  async createApp(app: NewApp): Promise<AppRecord> {
    return createdAppRecord(this.insertApp.immediate(app), app);
  }

  async getApps(ids: readonly ObjectId[]): Promise<Map<ObjectId, AppRecord>> {
    const apps = new Map<ObjectId, AppRecord>();
    if (ids.length === 0) return apps;
    for (const row of this.statements.selectApps.all(JSON.stringify(ids))) apps.set(row.id, toAppRecord(row));
    return apps;
  }

  async listApps(): Promise<AppRecord[]> {
    return this.statements.selectAllApps.all().map(toAppRecord);
  }

  async findAppsByIdTag(idTag: number): Promise<AppRecord[]> {
    return this.statements.selectAppsByIdTag.all(idTag).map(toAppRecord);
  }

  async updateApp(id: ObjectId, changes: AppChanges, now: number): Promise<AppRecord | undefined> {
    if (!this.changeApp.immediate(id, changes, now)) return undefined;
    return (await this.getApps([id])).get(id);
  }

  async deleteApp(id: ObjectId, now: number): Promise<boolean> {
    return this.removeApp.immediate(id, now);
  }

  async getDeletedApps(ids: readonly ObjectId[]): Promise<Set<ObjectId>> {
    if (ids.length === 0) return new Set();
    return new Set(this.appStatements.selectDeletedApps.all(JSON.stringify(ids)).map((row) => row.id));
  }


  async saveTokens(tokens: readonly TokenRecord[]): Promise<void> {
    if (tokens.length > 0) this.putTokens.immediate(tokens);
  }

  async findToken(hash: string): Promise<TokenRecord | undefined> {
    const row = this.statements.selectToken.get(hash);
    return row === undefined ? undefined : toTokenRecord(row);
  }

  async deleteTokens(appId: ObjectId, userId: ObjectId): Promise<void> {
    this.statements.deleteTokens.run(appId, userId);
  }

  async setGrants(appId: ObjectId, entries: readonly UserGrants[]): Promise<void> {
    this.replaceGrants.immediate(appId, entries);
  }

  async updateGrants(
    appId: ObjectId,
    userId: ObjectId,
    changes: readonly Grant[],
    options: GrantUpdateOptions = {},
  ): Promise<Grant[]> {
    return this.changeGrants.immediate(appId, userId, changes, options);
  }

  async revokeTokens(appId: ObjectId, userId: ObjectId, now: number): Promise<void> {
    this.moveTokensToRevoked.immediate(appId, userId, now);
  }

  async findRevokedToken(hash: string): Promise<RevokedToken | undefined> {
    const row = this.statements.selectRevokedToken.get(hash);
    return row === undefined ? undefined : { hash: row.hash, appId: row.app_id, userId: row.user_id, expiresAt: row.expires_at };
  }

  async getGrants(appId: ObjectId, userIds: readonly ObjectId[]): Promise<Map<ObjectId, Grant[]>> {
    if (userIds.length === 0) return new Map();
    return grantsByUser(this.statements.selectGrants.all(appId, JSON.stringify(userIds)));
  }

  async setCredentials(credentials: Credentials): Promise<void> {
    this.statements.upsertCredentials.run(credentials.userId, credentials.email.toLowerCase(), credentials.passwordHash);
  }

  async findCredentialsByEmail(email: string): Promise<Credentials | undefined> {
    const row = this.statements.selectCredentialsByEmail.get(email.toLowerCase());
    return row === undefined ? undefined : toCredentials(row);
  }

  async getCredentials(userId: ObjectId): Promise<Credentials | undefined> {
    const row = this.statements.selectCredentialsByUser.get(userId);
    return row === undefined ? undefined : toCredentials(row);
  }

  async saveAuthCodes(codes: readonly AuthCode[]): Promise<void> {
    if (codes.length > 0) this.putAuthCodes.immediate(codes);
  }

  async takeAuthCode(hash: string): Promise<AuthCode | undefined> {
    // DELETE … RETURNING is one statement, so two redemptions of one code cannot both win.
    const row = this.statements.deleteAuthCode.get(hash);
    return row === undefined ? undefined : toAuthCode(row);
  }
}
