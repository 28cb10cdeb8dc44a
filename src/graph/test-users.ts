/**
 * Test users: people an app makes for itself (`POST /<app>/accounts/test-users`), held as the
 * app's `test_users` associations so that listing them is ordinary keyset paging. Each gets a
 * generated email and password to sign in with (the password kept only as a scrypt hash) and,
 * when the app is installed for them, grants and a short-lived token. Only the app itself, with
 * its app token, may list, change or delete them.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { grantedScopes } from '../auth/grants.js';
import { issueLoginCodes } from '../auth/login-links.js';
import { hashPassword } from '../auth/passwords.js';
import { newUserToken } from '../auth/tokens.js';
import type { ReadContext } from '../engine/request/context.js';
import { writePost } from '../engine/write/mutations.js';
import { loadRoot } from '../engine/read/node-ids.js';
import { requireKnownPermission } from '../engine/access/permissions.js';
import { GraphError } from '../errors.js';
import type { ObjectId, Json } from '../ids.js';
import type { AppWrites, EdgeItems, StoredLink } from '../schema/behaviours.js';
import type { EdgePost } from '../schema/definition.js';
import { rules, type BooleanResult } from '../schema/versions.js';
import type { TokenRecord } from '../store/auth-store.js';
import type { StoredObject } from '../store/graph-store.js';
import type { IdOrRef, Ref, WriteOp } from '../store/write-ops.js';

const DEFAULT_PERMISSIONS = ['public_profile', 'user_friends'];
const EMAIL_DOMAIN = 'tfbnw.net';
const PASSWORD_LENGTH = { min: 6, max: 128 };
const FIRST_NAMES = ['Ada', 'Bruno', 'Clara', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kiri', 'Lena', 'Mateo', 'Nora', 'Omar', 'Priya'];
const LAST_NAMES = ['Alderton', 'Brightwater', 'Copperfield', 'Dunmore', 'Elmsworth', 'Fairbank', 'Greystone', 'Hollowell', 'Ironside', 'Juniper', 'Kettleby', 'Larkspur', 'Moorcroft', 'Northcott', 'Oakhurst', 'Pemberton'];

/** A test user about to be written. */
interface NewTestUser {
  profile: Record<string, unknown>;
  /** Written with the user: their credentials, and when the app is installed for them, their grants and a token. */
  writes: WriteOp[];
  /** What the app is shown once the user is written: their id, login link, sign-in secrets and token. */
  answer(userId: ObjectId): Promise<Json>;
}

/** Most test users one app may hold. */
const MAX_TEST_USERS = 500;

/** `POST /<app>/accounts/test-users`: the app makes a test user, listed among its test users. */
export const createTestUser: EdgePost = {
  byApp: async (context, app, params) => {
    // writePost creates the user first in its batch.
    const user = await prepareTestUser(context, params, { ref: 0 });
    const { results } = await writePost(context, createTestUser, { parent: app.id }, { owner: null, data: user.profile }, user.writes);
    return user.answer(results[0] as ObjectId);
  },
  creates: 'user',
  cap: {
    assoc: 'test_users',
    max: MAX_TEST_USERS,
    message: `This app already has the most test users allowed (${MAX_TEST_USERS}); delete some first`,
  },
  params: [
    { name: 'name', maxLength: 100 },
    { name: 'locale', maxLength: 5 },
    { name: 'installed', maxLength: 5 },
    { name: 'permissions', maxLength: 2048 },
  ],
  links: [{ assoc: 'test_users', from: 'parent', to: 'created' }],
};

/**
 * Checks the parameters of a new test user and makes all that is written with it, `user` being
 * the reference to the user inside that write: profile, password (hashed up front, as it is slow)
 * and, when installed, grants and a token.
 */
async function prepareTestUser(context: ReadContext, params: Record<string, unknown>, user: Ref): Promise<NewTestUser> {
  const installed = readInstalled(params.installed);
  const scopes = installed ? readPermissions(context, params.permissions) : null;
  const locale = params.locale === undefined ? 'en_US' : String(params.locale);
  if (!/^[a-z]{2}_[A-Z]{2}$/.test(locale)) throw GraphError.invalidParameter('The parameter locale must look like en_US');
  const name = params.name === undefined ? generatedName() : readName(params.name);
  const password = randomBytes(12).toString('base64url');
  const email = await unusedEmail(context, name);
  const writes: WriteOp[] = [{ op: 'setCredentials', userId: user, email, passwordHash: await hashPassword(password) }];
  const token = scopes === null ? undefined : tokenFor(context, user, scopes);
  if (token) {
    const grants = token.record.scopes.map((scope) => ({ scope, status: 'granted' as const }));
    writes.push({ op: 'setGrants', appId: context.viewer.app.id, userId: user, grants }, { op: 'saveToken', token: token.record });
  }
  return {
    profile: { ...nameParts(name), locale, email },
    writes,
    answer: async (userId) => {
      const id = context.viewer.ids.scope(userId);
      const codes = await issueLoginCodes(context.store, context.viewer.app.id, [userId], context.now);
      return { id, ...(token ? { access_token: token.accessToken } : {}), login_url: loginUrl(context, id, codes.get(userId)!), email, password };
    },
  };
}

/**
 * Items of `/<app>/accounts`: each test user's id and a fresh login link, and for those who
 * have the app installed a fresh token (tokens and login codes are stored hashed, so listing
 * one means issuing one). The tokens of the whole page are saved in one store call, and so are
 * its login codes.
 */
export const testUserItems: EdgeItems = { showsNodes: false, render: (context, rows) => renderTestUsers(context, rows) };

async function renderTestUsers(context: ReadContext, rows: readonly StoredLink[]): Promise<(row: StoredLink) => Json> {
  const userIds = [...new Set(rows.map((row) => row.id2))];
  const grants = await context.store.getGrants(context.viewer.app.id, userIds);
  const tokens = new Map<ObjectId, { accessToken: string; record: TokenRecord }>();
  for (const userId of userIds) {
    const scopes = [...grantedScopes(grants.get(userId))];
    if (scopes.length > 0) tokens.set(userId, tokenFor(context, userId, scopes));
  }
  await context.store.saveTokens([...tokens.values()].map((token) => token.record));
  const codes = await issueLoginCodes(context.store, context.viewer.app.id, userIds, context.now);
  return (row) => {
    const id = context.viewer.ids.scope(row.id2);
    const token = tokens.get(row.id2);
    return { id, ...(token === undefined ? {} : { access_token: token.accessToken }), login_url: loginUrl(context, id, codes.get(row.id2)!) };
  };
}

/** What an app token may change or delete beyond its own settings: its test users. */
export const testUserWrites: AppWrites = { update: (context, idText, params) => updateTestUser(context, idText, params), delete: (context, idText) => deleteTestUser(context, idText) };

/** `POST /<test user>` with `name` and/or `password`, both changed in one transaction. */
async function updateTestUser(context: ReadContext, idText: string, params: Record<string, string>): Promise<Json | BooleanResult> {
  const user = await loadTestUser(context, idText, 'post');
  const name = params.name === undefined || params.name === '' ? undefined : readName(params.name);
  const password = params.password === undefined || params.password === '' ? undefined : readPassword(params.password);
  if (name === undefined && password === undefined) throw GraphError.invalidParameter('The parameter name or password is required');
  const ops: WriteOp[] = [];
  if (name !== undefined) ops.push({ op: 'updateObject', id: user.id, data: nameParts(name), updatedTime: context.now });
  if (password !== undefined) {
    const current = await context.store.getCredentials(user.id);
    const email = current?.email ?? (await unusedEmail(context, String(user.data.name ?? 'test user')));
    ops.push({ op: 'setCredentials', userId: user.id, email, passwordHash: await hashPassword(password) });
  }
  await context.store.write(ops);
  return rules.booleanResult(context.version);
}

/** `DELETE /<test user>`: the person and all they own, their grants, tokens and credentials, in one transaction. */
async function deleteTestUser(context: ReadContext, idText: string): Promise<Json | BooleanResult> {
  const user = await loadTestUser(context, idText, 'delete');
  // Others' comments on what they wrote go with it, as when a post is deleted.
  await context.store.write([{ op: 'deleteUser', id: user.id, cascade: ['comments'] }]);
  return rules.booleanResult(context.version);
}

/** A user the viewing app made as a test user; anything else is refused to an app token. */
async function loadTestUser(context: ReadContext, idText: string, method: 'post' | 'delete'): Promise<StoredObject> {
  const { object, type } = await loadRoot(context, idText, method);
  const app = context.viewer.app.id;
  const isTestUser = type.name === 'user' && (await context.store.getExisting('test_users', [[app, object.id]])).size > 0;
  if (type.name !== 'user') throw GraphError.objectNotFound(idText, method);
  if (!isTestUser) throw GraphError.permission('An app token may only change or delete test users of its own app');
  return object;
}

/** A short-lived token of the viewing app for a test user, not yet saved. */
function tokenFor<User extends IdOrRef>(context: ReadContext, userId: User, scopes: readonly string[]) {
  return newUserToken({ appId: context.viewer.app.id, userId, scopes, expiresIn: context.tokenLifetime, now: context.now });
}

function loginUrl(context: ReadContext, id: string, code: string): string {
  return `${context.publicUrl}/checkpoint/test-user-login/${id}/?code=${code}`;
}

function readInstalled(value: unknown): boolean {
  if (value === undefined) return true;
  switch (String(value).toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw GraphError.invalidParameter('The parameter installed must be true or false');
  }
}

/** The requested permissions, each one the schema offers; the always granted one is always among them. */
function readPermissions(context: ReadContext, value: unknown): string[] {
  const requested = value === undefined ? DEFAULT_PERMISSIONS : String(value).split(',').map((scope) => scope.trim()).filter((scope) => scope !== '');
  for (const scope of requested) requireKnownPermission(context, scope);
  return [...new Set([context.schema.permissions.alwaysGranted, ...requested])];
}

function readName(value: unknown): string {
  const name = String(value).trim().replace(/\s+/g, ' ');
  if (name === '' || name.length > 100 || /[\u0000-\u001f]/.test(name)) {
    throw GraphError.invalidParameter('The parameter name must be between 1 and 100 printable characters');
  }
  return name;
}

function readPassword(value: string): string {
  if (value.length < PASSWORD_LENGTH.min || value.length > PASSWORD_LENGTH.max) {
    throw GraphError.invalidParameter(`The parameter password must be between ${PASSWORD_LENGTH.min} and ${PASSWORD_LENGTH.max} characters long`);
  }
  return value;
}

function generatedName(): string {
  return `${FIRST_NAMES[randomInt(FIRST_NAMES.length)]} ${LAST_NAMES[randomInt(LAST_NAMES.length)]}`;
}

/** A one-word name has no last name (null removes a previous one on update). */
function nameParts(name: string): Record<string, string | null> {
  const words = name.split(' ');
  return { name, first_name: words[0]!, last_name: words.length > 1 ? words[words.length - 1]! : null };
}

/** `<name>_<number>@tfbnw.net`, as the real service words test users' addresses; a taken one is drawn again. */
async function unusedEmail(context: ReadContext, name: string): Promise<string> {
  const stem = name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'test_user';
  for (let attempt = 0; attempt < 5; attempt++) {
    const email = `${stem}_${randomInt(1_000_000_000, 10_000_000_000)}@${EMAIL_DOMAIN}`;
    if (!(await context.store.findCredentialsByEmail(email))) return email;
  }
  throw GraphError.internal();
}
