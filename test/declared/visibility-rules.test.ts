/**
 * Every rule of the visibility vocabulary, over HTTP: for each, a reader who passes and one who
 * does not, reading the node by id, in an edge, nested in another node, and across `next` links.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { appAccessToken, registerApp } from '../../src/auth/apps.js';
import { allPages, declaredServer, type DeclaredServer } from './declared-server.js';

const SCHEMA = `
loom: 1
name: rules
version: 1
principal: person
scopes:
  notes: Read and write notes.
types:
  person:
    read: token
    default_fields: [name]
    fields:
      name: {type: string}
      secret: {type: string, read: owner, description: Only the person sees it.}
    edges:
      friends: {to: person, inverse: friends}
      notes: {to: note, backed_by: note.author}
      replies: {to: reply, backed_by: reply.by}
      diaries: {to: diary, backed_by: diary.writer}
      watchers: {to: person, read: owner}
  club:
    owner: keeper
    read: token
    fields:
      keeper: {type: ref<person>, source: owner}
      name: {type: string}
    edges:
      members: {to: person}
  note:
    owner: author
    read:
      by_field: audience
      cases:
        public: token
        users: principal
        apps: app
        private: owner
        hidden: never
        friends: {any: [owner, {related: {edge: person.friends, of: owner}}]}
        club: {related: {edge: club.members, of: club}}
    default_fields: [text]
    fields:
      author: {type: ref<person>, source: owner}
      club: {type: ref<club>}
      audience: {type: enum, values: [public, users, apps, private, hidden, friends, club], default: public}
      text: {type: string}
  reply:
    owner: by
    read: {follows: note}
    default_fields: [text]
    fields:
      by: {type: ref<person>, source: owner}
      note: {type: ref<note>}
      text: {type: string}
  diary:
    owner: writer
    read: {owner_of: club}
    default_fields: [text]
    fields:
      writer: {type: ref<person>, source: owner}
      club: {type: ref<club>}
      text: {type: string}
`;

let s: DeclaredServer;
const tokens: Record<string, string | undefined> = {};

before(async () => {
  s = await declaredServer(SCHEMA);
  await s.put([
    { type: 'person', key: 'ana', data: { name: 'Ana', secret: 'ana-secret' } },
    { type: 'person', key: 'ben', data: { name: 'Ben' } },
    { type: 'person', key: 'cy', data: { name: 'Cy' } },
    { type: 'club', key: 'chess', owner: 'cy', data: { name: 'Chess' } },
    { assoc: 'person.friends', from: 'ana', to: 'ben' },
    { assoc: 'person.friends', from: 'ben', to: 'ana' },
    { assoc: 'club.members', from: 'chess', to: 'cy' },
    { assoc: 'person.watchers', from: 'ana', to: 'cy' },
  ]);
  // Two notes per audience, so paging with limit=1 crosses a `next` link for each rule.
  let time = 1_600_000_000;
  for (const audience of ['public', 'users', 'apps', 'private', 'hidden', 'friends', 'club']) {
    for (const n of [1, 2]) {
      time += 10;
      await s.put([{ type: 'note', key: `${audience}${n}`, owner: 'ana', time, data: { audience, text: `${audience} ${n}`, club: '@chess' } }]);
      await s.put([{ assoc: 'person.notes', from: 'ana', to: `${audience}${n}`, time }]);
    }
  }
  for (const n of [1, 2]) {
    await s.put([
      { type: 'reply', key: `reply${n}`, owner: 'ben', time: 1_600_000_500 + n, data: { note: '@private1', text: `reply ${n}` } },
      { assoc: 'person.replies', from: 'ben', to: `reply${n}`, time: 1_600_000_500 + n },
      { type: 'diary', key: `diary${n}`, owner: 'ana', time: 1_600_000_600 + n, data: { club: '@chess', text: `diary ${n}` } },
      { assoc: 'person.diaries', from: 'ana', to: `diary${n}`, time: 1_600_000_600 + n },
    ]);
  }
  tokens.ana = await s.token('ana');
  tokens.ben = await s.token('ben');
  tokens.cy = await s.token('cy');
  tokens.app = s.appToken;
  tokens.otherApp = appAccessToken(await registerApp(s.store, { name: 'another', now: 1_700_000_000 }));
  tokens.none = undefined;
});
after(() => s.close());

interface Case {
  rule: string;
  /** Keys of the two nodes the rule guards, and the principal and edge that list them. */
  nodes: [string, string];
  listedBy: string;
  edge: string;
  passes: string;
  fails: string;
}

const CASES: Case[] = [
  { rule: 'token', nodes: ['public1', 'public2'], listedBy: 'ana', edge: 'notes', passes: 'ben', fails: 'none' },
  { rule: 'principal', nodes: ['users1', 'users2'], listedBy: 'ana', edge: 'notes', passes: 'cy', fails: 'app' },
  { rule: 'app', nodes: ['apps1', 'apps2'], listedBy: 'ana', edge: 'notes', passes: 'app', fails: 'ben' },
  { rule: 'app (of another app)', nodes: ['apps1', 'apps2'], listedBy: 'ana', edge: 'notes', passes: 'app', fails: 'otherApp' },
  { rule: 'owner', nodes: ['private1', 'private2'], listedBy: 'ana', edge: 'notes', passes: 'ana', fails: 'ben' },
  { rule: 'never', nodes: ['hidden1', 'hidden2'], listedBy: 'ana', edge: 'notes', passes: '', fails: 'ana' },
  { rule: 'any + related (friends of the owner)', nodes: ['friends1', 'friends2'], listedBy: 'ana', edge: 'notes', passes: 'ben', fails: 'cy' },
  { rule: 'related (members of the club a field names)', nodes: ['club1', 'club2'], listedBy: 'ana', edge: 'notes', passes: 'cy', fails: 'ben' },
  { rule: 'follows (the note a reply answers)', nodes: ['reply1', 'reply2'], listedBy: 'ben', edge: 'replies', passes: 'ana', fails: 'ben' },
  { rule: 'owner_of (the club a diary names)', nodes: ['diary1', 'diary2'], listedBy: 'ana', edge: 'diaries', passes: 'cy', fails: 'ben' },
];

async function byId(key: string, reader: string): Promise<boolean> {
  const reply = await s.get(`/${s.shown(key)}`, tokens[reader], { fields: 'id' });
  if (reply.status === 200) return true;
  assert.ok(reply.body?.error, `an error envelope for ${key}`);
  return false;
}

async function inEdge(c: Case, reader: string): Promise<string[]> {
  const reply = await s.get(`/${s.shown(c.listedBy)}/${c.edge}`, tokens[reader], { limit: '100' });
  if (reply.status !== 200) return [];
  return reply.body.data.map((item: { id: string }) => item.id);
}

async function nested(c: Case, reader: string): Promise<string[]> {
  const reply = await s.get(`/${s.shown(c.listedBy)}`, tokens[reader], { fields: `${c.edge}.limit(100){id}` });
  if (reply.status !== 200) return [];
  return (reply.body[c.edge]?.data ?? []).map((item: { id: string }) => item.id);
}

async function throughNext(c: Case, reader: string): Promise<string[]> {
  // A reader who cannot load the listing node at all (another app does not know its scoped id) sees nothing of it.
  if (tokens[reader] === undefined || (await s.get(`/${s.shown(c.listedBy)}`, tokens[reader])).status !== 200) return [];
  const items = await allPages(s, `/${s.shown(c.listedBy)}/${c.edge}`, tokens[reader], { limit: '1' });
  return items.map((item: { id: string }) => item.id);
}

describe('visibility rules', () => {
  for (const c of CASES) {
    it(`${c.rule}: a passing reader sees the nodes by id, in edges, nested and across next links`, async (t) => {
      if (c.passes === '') return t.skip('nobody passes this rule');
      const ids = c.nodes.map((key) => s.shown(key));
      for (const key of c.nodes) assert.equal(await byId(key, c.passes), true, `${c.passes} reads ${key}`);
      for (const read of [inEdge, nested, throughNext]) {
        const seen = await read(c, c.passes);
        for (const id of ids) assert.ok(seen.includes(id), `${read.name}: ${c.passes} sees ${id} in ${JSON.stringify(seen)}`);
      }
    });
    it(`${c.rule}: a failing reader sees them nowhere`, async () => {
      const ids = c.nodes.map((key) => s.shown(key));
      for (const key of c.nodes) assert.equal(await byId(key, c.fails), false, `${c.fails} must not read ${key}`);
      for (const read of [inEdge, nested, throughNext]) {
        const seen = await read(c, c.fails);
        for (const id of ids) assert.ok(!seen.includes(id), `${read.name}: ${c.fails} must not see ${id}`);
      }
    });
  }

  it('a field read rule leaves the field out for other readers', async () => {
    const own = await s.get(`/${s.shown('ana')}`, tokens.ana, { fields: 'name,secret' });
    assert.deepEqual(own.body, { name: 'Ana', secret: 'ana-secret', id: s.shown('ana') });
    const other = await s.get(`/${s.shown('ana')}`, tokens.ben, { fields: 'name,secret' });
    assert.deepEqual(other.body, { name: 'Ana', id: s.shown('ana') });
  });

  it('an edge read rule empties the edge for other readers', async () => {
    const own = await s.get(`/${s.shown('ana')}/watchers`, tokens.ana);
    assert.deepEqual(own.body.data.map((item: { id: string }) => item.id), [s.shown('cy')]);
    const other = await s.get(`/${s.shown('ana')}/watchers`, tokens.ben);
    assert.deepEqual(other.body.data, []);
  });

  it('the rule is checked for the viewer of a paging link, not for the one who made it', async () => {
    const first = await s.get(`/${s.shown('ana')}/notes`, tokens.ana, { limit: '1' });
    const next = new URL(first.body.paging.next as string);
    next.searchParams.set('access_token', tokens.ben!);
    const page = (await (await fetch(next)).json()) as { data: Array<{ id: string }> };
    for (const key of ['private1', 'private2', 'hidden1', 'hidden2']) assert.ok(!page.data.some((item) => item.id === s.shown(key)));
  });
});
