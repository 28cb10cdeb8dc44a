/**
 * Loom's answers against answers the real Graph API gave, v2.0 to v2.4. The client libraries
 * restfb, fb_graph2, facebook4j and koala keep answers recorded from the real service in their test
 * suites; real-answers/*.json describes each of them in our own terms (which keys, of which JSON
 * type, always there or only when the object held the data; see test/helpers/key-paths.ts), with
 * the version and the request that got it. Each request is sent here, over HTTP, to a server of the
 * demo graph, and its answer compared key by key: no key the real answer always carried may be
 * missing, none may be of another type, and none may be one the version did not have.
 *
 * A key that the real answer carried only when the object held the data, and that Loom's answer
 * lacks, is asked for by name on the same object: Loom has the data and left it out (a default
 * field the version had), or does not know the field, or the demo object holds nothing for it
 * (no difference). The differences still to fix are listed in KNOWN by answer; anything else fails,
 * and so does a listed difference that is gone, so the list only shrinks.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { loom, startServe, type RunningServe } from '../helpers/cli.js';
import { compareKeys, keyPaths, type KeyDescription } from '../helpers/key-paths.js';
import { scratchLocation } from '../helpers/test-store.js';

interface RealAnswer {
  /** The library and the recording's file; what KNOWN calls the answer. */
  id: string;
  name: string;
  recorded: string;
  version: string;
  /** `GET /v2.0/{post}/comments`: placeholders in braces name objects of the demo graph. */
  request: string;
  /** Whose token the request carries: the demo person's unless named. */
  token?: 'app' | 'page' | 'none';
  /** A POST's form body. */
  body?: string;
  keys: KeyDescription;
  /** Paging links: the names of their query parameters (`access_token` aside). */
  links?: Record<string, string[]>;
  maps?: string[];
  strings?: string[];
  notes?: string;
}

interface Library {
  library: string;
  repository: string;
  answers: RealAnswer[];
}

const FOLDER = new URL('../../../test/http/real-answers/', import.meta.url);
const libraries: Library[] = readdirSync(FOLDER)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(new URL(name, FOLDER), 'utf8')) as Library);

/**
 * Differences between Loom and the real service still to fix, by answer. Each entry names one:
 * `missing <path>` (always there in the real answer, never in Loom's), `left out <path>` (Loom
 * has it when asked, but leaves it out of this answer), `unknown <path>` (Loom refuses the field),
 * `type <path>: <real> ≠ <Loom>`, `extra <path>` (a key the version did not have), `empty <path>`
 * (a list the real answer filled), `link <path>: <parameters>` (another paging style), `status`.
 * None is left today.
 */
const KNOWN: Record<string, string[]> = {};

const SEED_TIME = '2026-01-31';
const CLOCK = '2026-02-01T12:00:00+0000';

let serve: RunningServe;
const tokens: Record<'user' | 'app' | 'page', string> = { user: '', app: '', page: '' };
/** The demo graph's objects and tokens the descriptions' placeholders name. */
const named: Record<string, string | undefined> = {};

type Reply = { status: number; body: unknown; text: string };

/** A GET over HTTP with the token given (null: none). */
async function get(path: string, params: Record<string, string>, token: string | null = tokens.user): Promise<Reply> {
  const query = new URLSearchParams(params);
  if (token !== null) query.set('access_token', token);
  const response = await fetch(`${serve.url}${path}${path.includes('?') ? '&' : '?'}${query}`);
  const text = await response.text();
  return { status: response.status, body: parse(text), text };
}

async function post(path: string, form: Record<string, string>, token: string | null = tokens.user): Promise<Reply> {
  const body = new URLSearchParams(form);
  if (token !== null) body.set('access_token', token);
  const response = await fetch(`${serve.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const text = await response.text();
  return { status: response.status, body: parse(text), text };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

type Item = Record<string, unknown> & { id: string };

/** The items of a v2.4 list, as the demo person reads them. */
async function items(path: string, params: Record<string, string> = {}, token: string = tokens.user): Promise<Item[]> {
  const answer = await get(path, { limit: '100', ...params }, token);
  const data = (answer.body as { data?: Item[] }).data;
  return Array.isArray(data) ? data : [];
}

/** The first item that has every key of `keys`, else the first item. */
const fullest = (list: Item[], keys: string[]) => list.find((item) => keys.every((key) => item[key] !== undefined)) ?? list[0];

before(async () => {
  const db = scratchLocation();
  const seeded = loom('seed', '--db', db, '--now', SEED_TIME);
  assert.equal(seeded.code, 0, seeded.stderr);
  const app = JSON.parse(loom('app', 'reset-secret', '1', '--json', '--db', db).stdout) as { id: string; secret: string };
  serve = await startServe('--db', db, '--no-demo', '--log', 'off');
  const issued = loom('token', '--db', db, '--json');
  assert.equal(issued.code, 0, issued.stderr);
  tokens.user = (JSON.parse(issued.stdout) as { access_token: string }).access_token;
  tokens.app = `${app.id}|${app.secret}`;
  const frozen = await fetch(`${serve.url}/_loom/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now: CLOCK }) });
  assert.equal(frozen.status, 200);
  await findNamedObjects(app.id);
  named.app_secret = app.secret;
});

after(async () => {
  await serve.stop();
});

/** Finds in the demo graph, as a client would, an object for each placeholder. */
async function findNamedObjects(appId: string): Promise<void> {
  named.app = appId;
  named.user_token = tokens.user;
  named.app_token = tokens.app;
  named.missing = '404404404404';
  const friends = await items('/v2.4/me/friends');
  named.friend = friends[0]?.id;
  named.friend_name = friends[0]?.name as string | undefined;
  const posts = await items('/v2.4/me/posts', { fields: 'id,type,message_tags,likes.limit(1),comments.limit(1)' });
  named.post = fullest(posts, ['likes', 'comments'])?.id;
  named.photo_post = posts.find((item) => item.type === 'photo')?.id;
  named.tagged_post = posts.find((item) => item.message_tags !== undefined)?.id;
  const pages = await items('/v2.4/me/likes', { fields: 'id,about,cover,website,category_list' });
  named.page = fullest(pages, ['about', 'cover', 'website', 'category_list'])?.id;
  const albums = await items('/v2.4/me/albums', { fields: 'id,cover_photo' });
  named.album = fullest(albums, ['cover_photo'])?.id;
  const events = await items('/v2.4/me/events', { fields: 'id,description,owner,cover' });
  named.event = fullest(events, ['description', 'owner', 'cover'])?.id;
  named.group = (await items('/v2.4/me/groups'))[0]?.id;
  const videos = await items('/v2.4/me/videos', { type: 'uploaded', fields: 'id,likes.limit(1),comments.limit(1)' });
  named.video = fullest(videos, ['likes', 'comments'])?.id;
  // A page the demo person administers: its token, a photo it posted, a comment on its post.
  const accounts = await items('/v2.4/me/accounts', { fields: 'id,access_token' });
  for (const account of accounts) {
    const token = account.access_token as string;
    const photos = await items(`/v2.4/${account.id}/photos`, { type: 'uploaded' }, token);
    const feed = await items(`/v2.4/${account.id}/posts`, { fields: 'id,from,comments.limit(1){id}' }, token);
    const commented = feed.find((item) => item.comments !== undefined && (item.from as { id?: string } | undefined)?.id === account.id);
    named.page_photo ??= photos[0]?.id;
    if (commented && named.page_comment === undefined) {
      named.page_comment = (commented.comments as { data: Item[] }).data[0]?.id;
      tokens.page = token;
    }
  }
  named.page_token = tokens.page || (accounts[0]?.access_token as string | undefined);
  tokens.page ||= named.page_token ?? '';
  // Two test users: one listed, one whose person took the app away, so their token no longer works.
  await post(`/v2.4/${appId}/accounts/test-users`, { installed: 'true' }, tokens.app);
  const leaving = (await post(`/v2.4/${appId}/accounts/test-users`, { installed: 'true' }, tokens.app)).body as { access_token?: string };
  if (leaving.access_token) {
    await fetch(`${serve.url}/v2.4/me/permissions?access_token=${encodeURIComponent(leaving.access_token)}`, { method: 'DELETE' });
    named.invalid_token = leaving.access_token;
  }
}

/** The request with its placeholders filled, or the placeholders the demo graph has nothing for. */
function filled(text: string): { text: string; lacking: string[] } {
  const lacking: string[] = [];
  const out = text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
    const value = named[name];
    if (value === undefined) lacking.push(name);
    return value ?? whole;
  });
  return { text: out, lacking };
}

interface Sent {
  status: number;
  body: unknown;
  path: string;
  query: Record<string, string>;
  /** Fields of the request that Loom refuses, left out of what was sent. */
  refused: string[];
}

const tokenOf = (answer: RealAnswer): string | null => (answer.token === 'none' ? null : tokens[answer.token ?? 'user']);

/** The top-level fields of a `fields` parameter (`a,b{c,d},e.limit(2)` → a, b{c,d}, e.limit(2)). */
function topFields(fields: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < fields.length; at += 1) {
    const char = fields[at];
    if (char === '{' || char === '(') depth += 1;
    else if (char === '}' || char === ')') depth -= 1;
    else if (char === ',' && depth === 0) {
      out.push(fields.slice(start, at));
      start = at + 1;
    }
  }
  out.push(fields.slice(start));
  return out.filter((field) => field !== '');
}

async function send(answer: RealAnswer): Promise<Sent | string[]> {
  const request = filled(answer.request.replace(/^NEXT /, ''));
  const form = filled(answer.body ?? '');
  const lacking = [...request.lacking, ...form.lacking];
  if (lacking.length > 0) return lacking;
  const [method, target] = request.text.split(' ') as ['GET' | 'POST', string];
  const url = new URL(target, 'http://loom');
  const query = Object.fromEntries(url.searchParams);
  const token = tokenOf(answer);
  let reply = method === 'GET' ? await get(url.pathname, query, token) : await post(url.pathname, { ...Object.fromEntries(new URLSearchParams(form.text)), ...query }, token);
  // A field Loom does not know fails the whole read: each field refused is a difference of its own,
  // and the rest is compared without it.
  const refused: string[] = [];
  if (method === 'GET' && reply.status !== 200 && query.fields !== undefined) {
    const fields = topFields(query.fields);
    for (const field of fields) if ((await get(url.pathname, { ...query, fields: field }, token)).status !== 200) refused.push(field);
    query.fields = fields.filter((field) => !refused.includes(field)).join(',');
    reply = await get(url.pathname, query, token);
  }
  if (answer.request.startsWith('NEXT ')) {
    // The page after: the first answer's own `next` link, as a client follows it.
    const next = (reply.body as { paging?: { next?: string } }).paging?.next;
    if (next === undefined) return ['a next page'];
    const response = await fetch(next);
    const text = await response.text();
    reply = { status: response.status, body: parse(text), text };
  }
  return { status: reply.status, body: reply.body, path: url.pathname, query, refused };
}

/** The field asked for, as `fields` spells it, that a key path of a node's answer stands for. */
function fieldOf(path: string): string[] {
  const segments = path.replace(/\[\]/g, '').split('.').filter((segment) => segment !== '*' && segment !== '');
  if (segments[0] === 'data') segments.shift();
  return segments;
}

/**
 * Why a key the real answer carried is not in Loom's: asked for by name on the same request,
 * Loom gives it (`left out`), refuses it (`unknown`), or has no data for it (undefined).
 */
async function askedByName(answer: RealAnswer, sent: Sent, path: string): Promise<'left out' | 'unknown' | undefined> {
  const segments = fieldOf(path);
  if (segments.length === 0 || ['paging', 'summary', 'error'].includes(segments[0]!)) return undefined;
  if (sent.query.fields !== undefined || answer.request.startsWith('POST') || /debug_token|oauth/.test(sent.path)) return undefined;
  // Nested first (`from{category}`), then the field alone: a field of JSON takes no selection.
  const nested = segments.reduceRight((inner, segment) => (inner ? `${segment}{${inner}}` : segment), '');
  // An ids= answer is asked again id by id: a field of one node type is an error on another.
  const ids = sent.query.ids?.split(',');
  const targets = ids ? ids.map((id) => ({ path: `${sent.path}${id}`, query: {}, key: path.replace(/^\*\./, '') })) : [{ path: sent.path, query: sent.query, key: path }];
  let refused = 0;
  for (const target of targets) {
    for (const fields of [...new Set([nested, segments[0]!])]) {
      const reply = await get(target.path, { ...target.query, fields }, tokenOf(answer));
      if (reply.status !== 200) {
        refused += 1;
        continue;
      }
      if (keyPaths(reply.body, ids ? {} : answer).paths.has(target.key)) return 'left out';
      break;
    }
  }
  return refused === targets.length * (nested === segments[0] ? 1 : 2) ? 'unknown' : undefined;
}

/**
 * What Loom's time-paged links add on purpose (docs/versions.md, `time-paging`): the exact
 * position, so that a page never skips or repeats an item of the same second, and which way a
 * `previous` link reads. The v2.0 recordings show links without them on feeds and photos, and with
 * `__paging_token` on events; a client passes a link's parameters back as they are.
 */
const POSITION_PARAMETERS = new Set(['__paging_token', '__previous']);

/** The query parameters a paging link carries, less the token and what the request itself named. */
function linkParameters(link: string, request: Record<string, string>): string[] {
  return [...new Set(new URL(link).searchParams.keys())].filter((name) => name !== 'access_token' && !(name in request)).sort();
}

function linkAt(body: unknown, path: string): string | undefined {
  let at: unknown = body;
  for (const key of path.split('.')) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return typeof at === 'string' ? at : undefined;
}

/** The expected status of an answer: an error's is 400, any other 200. */
const expectedStatus = (answer: RealAnswer) => (Object.keys(answer.keys).some((path) => path === 'error') ? 400 : 200);

async function differences(answer: RealAnswer): Promise<{ found: string[]; same: number }> {
  const sent = await send(answer);
  if (Array.isArray(sent)) return { found: sent.map((name) => `no demo object for {${name}}`), same: 0 };
  const found: string[] = sent.refused.map((field) => `unknown ${field}`);
  if (sent.status !== expectedStatus(answer)) found.push(`status ${sent.status}`);
  const compared = compareKeys(answer.keys, keyPaths(sent.body, answer));
  // A refused field is one difference, not one more for each of its keys.
  const refusedField = (path: string) => sent.refused.some((field) => fieldOf(path)[0] === field.split(/[.{]/)[0]);
  compared.missing = compared.missing.filter((path) => !refusedField(path));
  compared.absent = compared.absent.filter((path) => !refusedField(path));
  for (const path of compared.missing) found.push(`${(await askedByName(answer, sent, path)) ?? 'missing'} ${path}`);
  for (const path of compared.absent) {
    const why = await askedByName(answer, sent, path);
    if (why !== undefined) found.push(`${why} ${path}`);
  }
  found.push(...compared.types.map((text) => `type ${text}`), ...compared.extra.map((path) => `extra ${path}`), ...compared.empty.map((path) => `empty ${path}`));
  for (const [path, names] of Object.entries(answer.links ?? {})) {
    const link = linkAt(sent.body, path);
    if (link === undefined) continue;
    const expected = names.filter((name) => !(name in sent.query));
    const here = linkParameters(link, sent.query).filter((name) => names.includes(name) || !POSITION_PARAMETERS.has(name));
    if (expected.join(',') !== here.join(',')) found.push(`link ${path}: ${expected.join(',')} ≠ ${here.join(',')}`);
  }
  return { found: found.sort(), same: compared.same };
}

// Writes change what later reads see: they go last.
const isWrite = (answer: RealAnswer) => answer.request.startsWith('POST') && !answer.body?.startsWith('batch');
const ordered = libraries.flatMap((library) => library.answers).sort((a, b) => Number(isWrite(a)) - Number(isWrite(b)));

describe('answers recorded from the real Graph API, compared key by key', () => {
  it('covers every node type and edge named in the descriptions, v2.0 to v2.4, with at least forty answers', () => {
    assert.ok(ordered.length >= 40, `${ordered.length} answers`);
    assert.deepEqual([...new Set(ordered.map((answer) => answer.version))].sort(), ['v2.0', 'v2.1', 'v2.2', 'v2.3', 'v2.4']);
    const requests = ordered.map((answer) => `${answer.request} ${answer.body ?? ''}`).join('\n');
    for (const kind of ['/me/feed', '/me/posts', '{post}/comments', '{post}/likes', '/me/photos', '/me/albums', '{page}', '{event}', '{group}', '{video}', 'test-users', '/me/permissions', 'debug_token', 'batch=', '?ids=']) {
      assert.ok(requests.includes(kind), `no recorded answer for ${kind}`);
    }
  });

  const seenNames = new Set<string>();
  for (const answer of ordered) {
    const name = answer.id;
    assert.ok(!seenNames.has(name), `two answers are called ${name}`);
    seenNames.add(name);
    it(`${name}: ${answer.name} (${answer.request})`, async (t) => {
      const { found, same } = await differences(answer);
      t.diagnostic(`${same} keys the same, ${found.length} differences`);
      assert.deepEqual(found, KNOWN[name] ?? [], `differences from the real answer (${answer.recorded})`);
    });
  }

  it('lists no difference for an answer that is not described', () => {
    assert.deepEqual(Object.keys(KNOWN).filter((name) => !seenNames.has(name)), []);
  });
});
