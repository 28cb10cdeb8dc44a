/**
 * Every answer of a fixed set of requests across the demo graph, byte for byte: reads of every
 * node type and each of its edges in three versions, nested fields, paging, `ids=`, search,
 * errors, writes and a batch, on a graph seeded with a fixed seed and time and served on a frozen
 * clock. The answers are recorded in recorded-answers.json; a change of any byte fails here, so
 * a change of structure that must not change behaviour is checked against the whole surface.
 * After a change that is meant to alter answers, record them again and read the diff:
 *   LOOM_RECORD_ANSWERS=1 npm test -- http/recorded-answers
 * Only what differs from run to run is masked: tokens, trace ids, the server's port, ETags.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loom, startServe, type RunningServe } from '../helpers/cli.js';
import { scratchLocation } from '../helpers/test-store.js';

const RECORDING = new URL('../../../test/http/recorded-answers.json', import.meta.url);
const SEED_TIME = '2026-01-31';
const CLOCK = '2026-02-01T12:00:00+0000';
const VERSIONS = ['v2.0', 'v2.3', 'v2.4'] as const;

interface Answer {
  request: string;
  status: number;
  type: string | null;
  version: string | null;
  body: string;
}

let serve: RunningServe;
let token: string;
let appId: string;
let mediaDir: string;

before(async () => {
  const db = scratchLocation();
  mediaDir = mkdtempSync(join(tmpdir(), 'loom-recorded-'));
  const seeded = loom('seed', '--db', db, '--now', SEED_TIME);
  assert.equal(seeded.code, 0, seeded.stderr);
  serve = await startServe('--db', db, '--no-demo', '--log', 'off', '--media-dir', mediaDir);
  const issued = loom('token', '--db', db, '--json');
  assert.equal(issued.code, 0, issued.stderr);
  ({ access_token: token, app_id: appId } = JSON.parse(issued.stdout) as { access_token: string; app_id: string });
  const frozen = await fetch(`${serve.url}/_loom/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ now: CLOCK }),
  });
  assert.equal(frozen.status, 200);
});

after(async () => {
  await serve.stop();
  rmSync(mediaDir, { recursive: true, force: true });
});

/** Replaces what differs between runs of the same requests with a fixed word. */
function masked(text: string): string {
  let out = text.split(serve.url).join('<BASE>');
  for (const form of [token, encodeURIComponent(token)]) out = out.split(form).join('<TOKEN>');
  // Page tokens and test users' tokens are issued afresh on every read.
  return out.replace(/EAA[\w-]{40,}/g, '<TOKEN>').replace(/fbtrace_id(\\*)":(\\*)"[^"\\]*/g, 'fbtrace_id$1":$2"<TRACE>');
}

const answers: Answer[] = [];

async function send(method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string> = {}, withToken = true): Promise<unknown> {
  const query = new URLSearchParams(withToken ? { ...params, access_token: token } : params);
  const target = `${serve.url}${path}`;
  const response =
    method === 'GET'
      ? await fetch(`${target}${target.includes('?') ? '&' : '?'}${query}`)
      : await fetch(target, { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: query.toString() });
  const body = await response.text();
  const shownParams = new URLSearchParams(params).toString();
  answers.push({
    request: `${method} ${path}${shownParams ? ` ${shownParams}` : ''}${withToken ? '' : ' (no token)'}`,
    status: response.status,
    type: response.headers.get('content-type'),
    version: response.headers.get('facebook-api-version'),
    body: masked(body),
  });
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The id of the first item of an edge, if it has one. */
async function firstOf(path: string, params: Record<string, string> = {}): Promise<string | undefined> {
  const answer = (await send('GET', path, { limit: '1', ...params })) as { data?: Array<{ id?: string }> } | undefined;
  return answer?.data?.[0]?.id;
}

test('answers every recorded request exactly as recorded', async () => {
  // One node of each type the demo graph holds, found the way a client would.
  const me = (await send('GET', '/v2.4/me', { fields: 'id' })) as { id: string };
  const nodes: Record<string, string | undefined> = { user: me.id, application: appId };
  nodes.friend = await firstOf('/v2.4/me/friends');
  nodes.post = await firstOf('/v2.4/me/posts');
  nodes.feedStory = await firstOf('/v2.4/me/feed', { fields: 'id', limit: '1', until: '1769000000' });
  nodes.comment = nodes.post && (await firstOf(`/v2.4/${nodes.post}/comments`));
  nodes.photo = await firstOf('/v2.4/me/photos');
  nodes.album = await firstOf('/v2.4/me/albums');
  nodes.page = await firstOf('/v2.4/me/likes');
  nodes.event = await firstOf('/v2.4/me/events');
  nodes.group = await firstOf('/v2.4/me/groups');
  nodes.video = await firstOf('/v2.4/me/videos');
  nodes.friendlist = await firstOf('/v2.4/me/friendlists');
  nodes.account = await firstOf('/v2.4/me/accounts');
  nodes.liker = nodes.post && (await firstOf(`/v2.4/${nodes.post}/likes`));
  nodes.commenter = nodes.comment && ((await send('GET', `/v2.4/${nodes.comment}`, { fields: 'from' })) as { from?: { id: string } }).from?.id;

  const ids = [...new Set(Object.values(nodes).filter((id): id is string => id !== undefined))];
  for (const id of ids) {
    for (const version of VERSIONS) await send('GET', `/${version}/${id}`);
    const described = (await send('GET', `/v2.4/${id}`, { metadata: '1' })) as { metadata?: { connections?: Record<string, string> } } | undefined;
    for (const edge of Object.keys(described?.metadata?.connections ?? {}).sort()) {
      if (edge === 'picture') {
        await send('GET', `/v2.4/${id}/picture`, { redirect: 'false' });
        continue;
      }
      await send('GET', `/v2.4/${id}/${edge}`, { limit: '2' });
      await send('GET', `/v2.0/${id}/${edge}`, { limit: '2' });
    }
  }

  // Nested selections, modifiers and the versions' paging.
  const nested = 'posts.limit(3){created_time,message,from,likes.limit(2).summary(true){name},comments.limit(2).summary(true){from,message,like_count}},friends.limit(3){name,picture}';
  for (const version of VERSIONS) await send('GET', `/${version}/me`, { fields: nested });
  await send('GET', '/v2.4/me', { fields: 'albums.limit(2){name,photos.limit(2){name,images,album{name}}},events.limit(2){name,attending.limit(2){name}}' });
  await send('GET', '/v2.4/me', { fields: 'groups.limit(2){name,members.limit(3){name}},videos.limit(2){description,thumbnails},likes.limit(2){name,category}' });
  await send('GET', '/v2.4/me', { fields: 'id,name,birthday,email,location,hometown,education,work,age_range,link,picture.type(large)' });
  const first = (await send('GET', '/v2.4/me/posts', { limit: '2' })) as { paging?: { cursors?: { after?: string } } };
  const cursor = first.paging?.cursors?.after;
  if (cursor) {
    const second = (await send('GET', '/v2.4/me/posts', { limit: '2', after: cursor })) as { paging?: { cursors?: { before?: string } } };
    if (second.paging?.cursors?.before) await send('GET', '/v2.4/me/posts', { limit: '2', before: second.paging.cursors.before });
  }
  await send('GET', '/v2.4/me/feed', { limit: '3', since: '1767225600', until: '1769817600' });
  await send('GET', '/v2.0/me/friends', { limit: '2', offset: '2' });

  // Several ids at once, search and the public picture.
  await send('GET', '/v2.4/', { ids: ids.slice(0, 4).join(','), fields: 'id,name' });
  if (nodes.post && nodes.photo) await send('GET', '/v2.4/likes', { ids: `${nodes.post},${nodes.photo}`, limit: '2', summary: 'true' });
  for (const type of ['user', 'page', 'event', 'group', 'place', 'placetopic']) await send('GET', '/v2.4/search', { q: 'a', type, limit: '3' });
  await send('GET', `/v2.4/${me.id}/picture`, { redirect: 'false', type: 'large' }, false);

  // Errors, each in its envelope.
  await send('GET', '/v2.4/me/bogus');
  await send('GET', '/v2.4/404');
  await send('GET', '/v2.4/me', { fields: 'name{' });
  await send('GET', '/v2.4/me', { fields: 'bogus' });
  await send('GET', '/v2.4/me', {}, false);
  await send('GET', '/v2.4/me', { access_token: 'not-a-token' }, false);
  await send('GET', '/v9.9/me');
  await send('GET', '/v2.4/me/posts', { limit: '2', after: 'tampered' });

  // Writes, read back, then undone.
  const created = (await send('POST', '/v2.4/me/feed', { message: 'Recorded hello' })) as { id?: string };
  if (created.id) {
    await send('POST', `/v2.4/${created.id}/likes`);
    await send('POST', `/v2.4/${created.id}/comments`, { message: 'Recorded comment' });
    await send('GET', `/v2.4/${created.id}`, { fields: 'message,created_time,likes.summary(true){name},comments.summary(true){message,from}' });
    await send('POST', `/v2.4/${created.id}`, { message: 'Recorded edit' });
    await send('DELETE', `/v2.4/${created.id}/likes`);
    await send('DELETE', `/v2.4/${created.id}`);
    await send('GET', `/v2.4/${created.id}`);
  }
  await send('POST', '/v2.4/me/albums', { name: 'Recorded album', message: 'made by a test' });

  // A batch with a named operation, a reference to it and a write.
  const batch = [
    { method: 'GET', relative_url: 'me?fields=id,name' },
    { method: 'GET', relative_url: 'me/friends?limit=2', name: 'friends' },
    { method: 'GET', relative_url: '?ids={result=friends:$.data.*.id}&fields=name' },
    { method: 'POST', relative_url: 'me/feed', body: 'message=From+a+batch' },
    { method: 'GET', relative_url: 'me/bogus' },
  ];
  await send('POST', '/v2.4/', { batch: JSON.stringify(batch), include_headers: 'false' });

  const recorded = JSON.stringify(answers, null, 1) + '\n';
  if (process.env.LOOM_RECORD_ANSWERS === '1') {
    writeFileSync(RECORDING, recorded);
    return;
  }
  const expected = JSON.parse(readFileSync(RECORDING, 'utf8')) as Answer[];
  const differences: string[] = [];
  for (let i = 0; i < Math.max(expected.length, answers.length); i += 1) {
    const [was, now] = [expected[i], answers[i]];
    const [a, b] = [JSON.stringify(was) ?? '', JSON.stringify(now) ?? ''];
    if (a === b) continue;
    let at = 0;
    while (a[at] === b[at]) at += 1;
    const near = (text: string) => text.slice(Math.max(0, at - 150), at + 250);
    differences.push(`#${i} ${now?.request ?? was?.request}\n  recorded: …${near(a)}\n  answered: …${near(b)}`);
  }
  assert.equal(differences.length, 0, `${differences.length} answers differ from the recording:\n${differences.slice(0, 8).join('\n')}`);
});
