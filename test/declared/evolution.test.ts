/**
 * Evolving an applied declaration while it is served: rename a field and an edge (no data lost),
 * add an `inverse:` (the other direction filled from existing links), remove a field (hidden at
 * once, back when the older file is applied again) and prune it (its data deleted).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pruneDeclaration } from '../../src/declared/apply.js';
import { readAppliedSchema } from '../../src/declared/applied.js';
import { selectRows } from '../helpers/test-store.js';
import { declaredServer, NOW, type DeclaredServer } from './declared-server.js';

const V1 = `
loom: 1
name: shelf
version: 1
principal: reader
scopes:
  shelf: See a reader's shelf.
types:
  reader:
    read: token
    default_fields: [name]
    fields:
      name: {type: string}
    edges:
      follows: {to: reader, description: Readers this reader follows.}
      books: {to: book, backed_by: book.added_by}
  book:
    owner: added_by
    read: token
    default_fields: [title]
    fields:
      added_by: {type: ref<reader>, source: owner}
      title: {type: string}
      blurb: {type: string}
`;

/** title renamed headline (same storage), follows renamed following (old name kept as an alias), an inverse added. */
const V2 = V1.replace('version: 1', 'version: 2')
  .replace('default_fields: [title]', 'default_fields: [headline]')
  .replace('title: {type: string}', 'headline: {type: string, storage: title}')
  .replace('follows: {to: reader, description: Readers this reader follows.}', 'following: {to: reader, aliases: [follows], inverse: followers, description: Readers this reader follows.}\n      followers: {to: reader, inverse: following, write: {link: viewer, unlink: viewer, allow: principal, scope: shelf}}');

/** V2 without the blurb. */
const V3 = V2.replace('version: 2', 'version: 3').replace('      blurb: {type: string}\n', '');

let s: DeclaredServer;
let token: string;

before(async () => {
  s = await declaredServer(V1);
  await s.put([
    { type: 'reader', key: 'ana', data: { name: 'Ana' } },
    { type: 'reader', key: 'ben', data: { name: 'Ben' } },
    { type: 'reader', key: 'cy', data: { name: 'Cy' } },
    { assoc: 'reader.follows', from: 'ana', to: 'ben' },
    { assoc: 'reader.follows', from: 'cy', to: 'ben' },
    { type: 'book', key: 'emma', owner: 'ana', data: { title: 'Emma', blurb: 'A matchmaker.' } },
    { assoc: 'reader.books', from: 'ana', to: 'emma' },
  ]);
  token = await s.token('ben');
});
after(() => s.close());

const ids = (reply: { body: any }) => (reply.body.data as Array<{ id: string }>).map((item) => item.id).sort();

describe('schema evolution', () => {
  it('answers with the first version', async () => {
    assert.deepEqual((await s.get(`/${s.shown('emma')}`, token, { fields: 'title,blurb' })).body, { title: 'Emma', blurb: 'A matchmaker.', id: s.shown('emma') });
    assert.deepEqual(ids(await s.get(`/${s.shown('ana')}/follows`, token)), [s.shown('ben')]);
    assert.equal((await s.get(`/${s.shown('ben')}/followers`, token)).body.error.code, 2500, 'no such edge yet');
  });

  it('renames a field and an edge, and fills the inverse it adds from the existing links', async () => {
    await s.reapply(V2);
    assert.equal((await s.get(`/${s.shown('emma')}`, token, { fields: 'headline' })).status, 200, 'the very next request is served by the version applied');
    assert.deepEqual((await s.get(`/${s.shown('emma')}`, token)).body, { headline: 'Emma', id: s.shown('emma') });
    assert.equal((await s.get(`/${s.shown('emma')}`, token, { fields: 'title' })).body.error.code, 100);
    assert.deepEqual(ids(await s.get(`/${s.shown('ana')}/following`, token)), [s.shown('ben')]);
    assert.deepEqual(ids(await s.get(`/${s.shown('ana')}/follows`, token)), [s.shown('ben')], 'the alias still answers');
    assert.deepEqual(ids(await s.get(`/${s.shown('ben')}/followers`, token)), [s.shown('ana'), s.shown('cy')].sort());
    const summary = await s.get(`/${s.shown('ben')}/followers`, token, { summary: 'true', limit: '0' });
    assert.equal(summary.body.summary.total_count, 2);
    const applied = await readAppliedSchema(s.store);
    assert.equal(applied?.version, 2);
    assert.equal(applied?.storage.fields['book.headline'], 'title');
    assert.equal(applied?.storage.edges['reader.following'], 'reader.follows');
  });

  it('keeps the inverse in step on later links', async () => {
    await s.put([{ type: 'reader', key: 'dee', data: { name: 'Dee' } }]);
    const dee = await s.token('dee');
    assert.deepEqual((await s.server.form(`/${s.shown('cy')}/followers`, { access_token: dee })).body, { success: true });
    assert.deepEqual(ids(await s.get('/me/following', dee)), [s.shown('cy')]);
    assert.deepEqual(ids(await s.get(`/${s.shown('cy')}/followers`, dee)), [s.shown('dee')]);
  });

  it('hides a removed field at once, keeps its data, and brings it back when the older file is applied', async () => {
    await s.reapply(V3);
    assert.notEqual((await s.get(`/${s.shown('emma')}`, token, { fields: 'blurb' })).status, 200, 'the very next request is served by the version applied');
    const [row] = await selectRows<{ data: unknown }>(s.store, 'SELECT data FROM objects WHERE id = ?', [s.id('emma')]);
    assert.equal(dataOf(row!.data).blurb, 'A matchmaker.');
    await s.reapply(V2);
    assert.equal((await s.get(`/${s.shown('emma')}`, token, { fields: 'blurb' })).status, 200, 'the very next request is served by the version applied');
    assert.deepEqual((await s.get(`/${s.shown('emma')}`, token, { fields: 'headline,blurb' })).body, { headline: 'Emma', blurb: 'A matchmaker.', id: s.shown('emma') });
  });

  it('prunes the data of a removed field, and nothing else', async () => {
    await s.reapply(V3);
    assert.notEqual((await s.get(`/${s.shown('emma')}`, token, { fields: 'blurb' })).status, 200, 'the very next request is served by the version applied');
    const pruned = await pruneDeclaration(s.store, NOW + 900);
    assert.deepEqual(pruned.fields, ['book.blurb']);
    assert.deepEqual(pruned.edges, []);
    const [row] = await selectRows<{ data: unknown }>(s.store, 'SELECT data FROM objects WHERE id = ?', [s.id('emma')]);
    assert.deepEqual(dataOf(row!.data), { title: 'Emma' });
    // Applying the file with the blurb again finds no data under it: prune is final.
    await s.reapply(V2);
    assert.equal((await s.get(`/${s.shown('emma')}`, token, { fields: 'blurb' })).status, 200, 'the very next request is served by the version applied');
    assert.deepEqual((await s.get(`/${s.shown('emma')}`, token, { fields: 'headline,blurb' })).body, { headline: 'Emma', id: s.shown('emma') });
    assert.deepEqual(ids(await s.get(`/${s.shown('ben')}/followers`, token)), [s.shown('ana'), s.shown('cy')].sort());
  });
});

function dataOf(data: unknown): Record<string, unknown> {
  return typeof data === 'string' ? (JSON.parse(data) as Record<string, unknown>) : (data as Record<string, unknown>);
}
