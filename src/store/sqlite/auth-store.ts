import type { ObjectId } from '../../ids.js';
import type { AppChanges, AppRecord, AppStore, AuthCode, AuthStore, Grant, GrantUpdateOptions, NewApp, TokenRecord, UserGrants } from '../auth-store.js';
import { toAppRecord, toAuthCode, toCredentials, toTokenRecord } from '../rows.js';
import { appData, createdAppRecord, grantsByUser } from '../store-results.js';
import { changedScopes } from '../write-ops.js';
import { prepareAppStatements } from './app-statements.js';
import type { SqliteDatabase } from './database.js';

/** The auth records on SQLite: apps, tokens, grants, credentials and authorization codes. */
export function sqliteAuthStore(database: SqliteDatabase): AppStore & AuthStore {
  const { db, statements, writes, webhooks } = database;
  const appStatements = prepareAppStatements(db);

  // Each change runs as one transaction, taken with its write lock up front (`.immediate`).
  const insertApp = db.transaction((app: NewApp) => {
    const id =
      app.id === undefined
        ? writes.insertObject('application', null, app.createdTime, app.createdTime, appData(app))
        : writes.insertFixedObject(app.id, 'application', app.createdTime, appData(app));
    statements.insertApp.run(
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
  const changeApp = db.transaction((id: ObjectId, changes: AppChanges, now: number) => {
    const a = appStatements;
    if (a.selectAppExists.get(id) === undefined) return false;
    const redirectUris = changes.redirectUris === undefined ? null : JSON.stringify(changes.redirectUris);
    const requireProof = changes.requireProof === undefined ? null : changes.requireProof ? 1 : 0;
    const business = changes.businessId !== undefined;
    a.updateApp.run(changes.secret ?? null, requireProof, business ? 1 : 0, changes.businessId ?? null, redirectUris, id);
    if (changes.data !== undefined) writes.updateObject(id, changes.data, now);
    return true;
  });
  const removeApp = db.transaction((id: ObjectId, now: number) => {
    const a = appStatements;
    if (a.selectAppExists.get(id) === undefined) return false;
    a.revokeTokensOfApp.run(id);
    a.deleteTokensOfApp.run(id);
    a.deleteGrantsOfApp.run(id);
    a.deleteAuthCodesOfApp.run(id);
    a.deleteAppRow.run(id);
    writes.deleteObject(id);
    a.insertDeletedApp.run(id, now);
    statements.deleteStaleRevokedTokens.run(now);
    return true;
  });
  const replaceGrants = db.transaction((appId: ObjectId, entries: readonly UserGrants[]) => {
    for (const { userId, grants } of entries) writes.replaceUserGrants(appId, userId, grants);
  });
  const changeGrants = db.transaction((appId: ObjectId, userId: ObjectId, changes: readonly Grant[], options: GrantUpdateOptions) => {
    const grantsNow = () => statements.selectGrants.all(appId, JSON.stringify([userId])).map(({ scope, status }) => ({ scope, status }));
    const before = options.changesAt === undefined ? [] : grantsNow();
    for (const { scope, status } of changes) {
      if (options.onlyExisting) statements.updateGrantStatus.run(status, appId, userId, scope, status);
      else statements.insertGrant.run(appId, userId, scope, status);
    }
    const after = grantsNow();
    if (options.changesAt !== undefined) {
      for (const scope of changedScopes(before, after)) webhooks.recordChange(userId, scope, options.changesAt, appId);
    }
    return after;
  });
  const moveTokensToRevoked = db.transaction((appId: ObjectId, userId: ObjectId, now: number) => {
    statements.deleteStaleRevokedTokens.run(now);
    statements.copyTokensToRevoked.run(appId, userId);
    statements.deleteTokens.run(appId, userId);
  });
  const putTokens = db.transaction((tokens: readonly TokenRecord[]) => {
    for (const token of tokens) writes.putToken(token);
  });
  const putAuthCodes = db.transaction((codes: readonly AuthCode[]) => {
    for (const code of codes) {
      statements.insertAuthCode.run(code.hash, code.appId, code.userId, code.redirectUri, JSON.stringify(code.scopes), code.expiresAt);
    }
  });

  async function getApps(ids: readonly ObjectId[]): Promise<Map<ObjectId, AppRecord>> {
    const apps = new Map<ObjectId, AppRecord>();
    if (ids.length === 0) return apps;
    for (const row of statements.selectApps.all(JSON.stringify(ids))) apps.set(row.id, toAppRecord(row));
    return apps;
  }

  return {
    async createApp(app) {
      return createdAppRecord(insertApp.immediate(app), app);
    },

    getApps,

    async listApps() {
      return statements.selectAllApps.all().map(toAppRecord);
    },

    async findAppsByIdTag(idTag) {
      return statements.selectAppsByIdTag.all(idTag).map(toAppRecord);
    },

    async updateApp(id, changes, now) {
      if (!changeApp.immediate(id, changes, now)) return undefined;
      return (await getApps([id])).get(id);
    },

    async deleteApp(id, now) {
      return removeApp.immediate(id, now);
    },

    async getDeletedApps(ids) {
      if (ids.length === 0) return new Set();
      return new Set(appStatements.selectDeletedApps.all(JSON.stringify(ids)).map((row) => row.id));
    },

    async saveTokens(tokens) {
      if (tokens.length > 0) putTokens.immediate(tokens);
    },

    async findToken(hash) {
      const row = statements.selectToken.get(hash);
      return row === undefined ? undefined : toTokenRecord(row);
    },

    async deleteTokens(appId, userId) {
      statements.deleteTokens.run(appId, userId);
    },

    async revokeTokens(appId, userId, now) {
      moveTokensToRevoked.immediate(appId, userId, now);
    },

    async findRevokedToken(hash) {
      const row = statements.selectRevokedToken.get(hash);
      return row === undefined ? undefined : { hash: row.hash, appId: row.app_id, userId: row.user_id, expiresAt: row.expires_at, scopes: JSON.parse(row.scopes) as string[] };
    },

    async setGrants(appId, entries) {
      replaceGrants.immediate(appId, entries);
    },

    async updateGrants(appId, userId, changes, options = {}) {
      return changeGrants.immediate(appId, userId, changes, options);
    },

    async getGrants(appId, userIds) {
      if (userIds.length === 0) return new Map();
      return grantsByUser(statements.selectGrants.all(appId, JSON.stringify(userIds)));
    },

    async getAppGrants(appId, limit) {
      const rows = statements.selectAppGrants.all(appId, limit + 1);
      return rows.length > limit ? undefined : grantsByUser(rows);
    },

    async setCredentials(credentials) {
      statements.upsertCredentials.run(credentials.userId, credentials.email.toLowerCase(), credentials.passwordHash);
    },

    async findCredentialsByEmail(email) {
      const row = statements.selectCredentialsByEmail.get(email.toLowerCase());
      return row === undefined ? undefined : toCredentials(row);
    },

    async getCredentials(userId) {
      const row = statements.selectCredentialsByUser.get(userId);
      return row === undefined ? undefined : toCredentials(row);
    },

    async saveAuthCodes(codes) {
      if (codes.length > 0) putAuthCodes.immediate(codes);
    },

    async takeAuthCode(hash) {
      // DELETE … RETURNING is one statement, so two redemptions of one code cannot both win.
      const row = statements.deleteAuthCode.get(hash);
      return row === undefined ? undefined : toAuthCode(row);
    },
  };
}
