/**
 * A declared schema whose default fields name each other, over HTTP: a person's default names
 * their best friend (a person), a book's its keeper, and before v2.4 a person's richer defaults
 * list their books, whose richer defaults list their readers. Every read without `fields`
 * answers: a node named by reference shows its reference fields, and a person named inside a
 * person named by reference shows only their id.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { declaredServer, type DeclaredServer } from './declared-server.js';

const SCHEMA = `
loom: 1
name: cycles
version: 1
principal: person
types:
  person:
    read: token
    default_fields: [name, best_friend]
    full_default_fields: {names: [name, best_friend, books]}
    fields:
      name: {type: string}
      best_friend: {type: ref<person>}
    edges:
      books: {to: book}
  book:
    owner: keeper
    read: token
    default_fields: [title, keeper]
    full_default_fields: {names: [title, keeper, readers]}
    fields:
      keeper: {type: ref<person>, source: owner}
      title: {type: string}
    edges:
      readers: {to: person}
`;

describe('default fields of a declared schema that name each other', () => {
  let s: DeclaredServer;
  let token: string;

  before(async () => {
    s = await declaredServer(SCHEMA);
    await s.put([
      { type: 'person', key: 'ana', data: { name: 'Ana' } },
      { type: 'person', key: 'ben', data: { name: 'Ben', best_friend: '@ana' } },
      { type: 'book', key: 'dune', owner: 'ana', data: { title: 'Dune' } },
      { assoc: 'person.books', from: 'ana', to: 'dune' },
      { assoc: 'book.readers', from: 'dune', to: 'ben' },
    ]);
    await s.store.write([{ op: 'updateObject', id: s.id('ana'), data: { name: 'Ana', best_friend: s.id('ben') }, updatedTime: 1_700_000_100 }]);
    token = await s.token('ana');
  });
  after(() => s.close());

  it('answers a person whose best friend names them back, in every version', async () => {
    const [ana, ben] = [s.shown('ana'), s.shown('ben')];
    const friend = { name: 'Ben', best_friend: { id: ana }, id: ben };
    const minimal = await s.get('/v2.4/me', token);
    assert.equal(minimal.status, 200, JSON.stringify(minimal.body));
    assert.deepEqual(minimal.body, { name: 'Ana', best_friend: friend, id: ana });

    const rich = await s.get('/v2.0/me', token);
    assert.equal(rich.status, 200, JSON.stringify(rich.body));
    const { books, ...rest } = rich.body;
    assert.deepEqual(rest, { name: 'Ana', best_friend: friend, id: ana });
    // The book listed by a default edge shows its fields only, its keeper by reference.
    assert.deepEqual(books.data, [{ title: 'Dune', keeper: { name: 'Ana', best_friend: { id: ben }, id: ana }, id: String(s.id('dune')) }]);
  });

  it('answers a book read by its id, and its readers, in every version', async () => {
    const book = String(s.id('dune'));
    for (const version of ['v2.0', 'v2.4']) {
      const read = await s.get(`/${version}/${book}`, token);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.deepEqual(read.body.keeper, { name: 'Ana', best_friend: { id: s.shown('ben') }, id: s.shown('ana') }, version);
      const readers = await s.get(`/${version}/${book}/readers`, token);
      assert.equal(readers.status, 200, JSON.stringify(readers.body));
      assert.equal(readers.body.data[0].name, 'Ben', version);
    }
  });
});
