/**
 * The declaration file beyond one YAML document: `include:` and JSON, fields bounded by API
 * versions, the Explorer's permission list, and a backfill that resumes where it stopped.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resumeBackfill } from '../../src/declared/apply.js';
import { EVOLUTION_BATCH } from '../../src/declared/narrowing.js';
import { DeclarationError, loadDeclaration } from '../../src/declared/load.js';
import { declaredServer, type DeclaredServer } from './declared-server.js';

function files(entries: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'loom-decl-'));
  for (const [name, text] of Object.entries(entries)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('declaration files', () => {
  it('merges included files, and names the included file and line of a type declared twice', async () => {
    const dir = files({
      'main.loom.yaml': 'loom: 1\nname: lib\nversion: 1\ninclude: [books.yaml, more.json]\ntypes:\n  shelf:\n    fields:\n      name: {type: string}\n',
      'books.yaml': 'types:\n  book:\n    fields:\n      title: {type: string}\n',
      'more.json': '{"scopes": {"read_more": "More."}, "types": {"author": {"fields": {"name": {"type": "string"}}}}}',
    });
    const loaded = loadDeclaration(join(dir, 'main.loom.yaml'));
    assert.deepEqual(Object.keys(loaded.declaration.types), ['shelf', 'book', 'author']);
    assert.deepEqual(loaded.declaration.scopes, { read_more: 'More.' });
    assert.deepEqual(loaded.locate('types.book.fields.title'), { file: join(dir, 'books.yaml'), line: 4 });

    writeFileSync(join(dir, 'books.yaml'), 'types:\n  book:\n    fields: {}\n  shelf:\n    fields: {}\n');
    assert.throws(() => loadDeclaration(join(dir, 'main.loom.yaml')), (error: unknown) => {
      assert.ok(error instanceof DeclarationError);
      assert.deepEqual(error.problems, [{ file: join(dir, 'books.yaml'), line: 4, key: 'types.shelf', message: `is already declared in ${join(dir, 'main.loom.yaml')}` }]);
      return true;
    });
    writeFileSync(join(dir, 'books.yaml'), 'name: other\ntypes: {}\n');
    assert.throws(() => loadDeclaration(join(dir, 'main.loom.yaml')), /books\.yaml:1: name: an included file may hold only types, permissions, permission_groups, scopes and include/);
  });

  it('reads a YAML syntax error with its line', async () => {
    const dir = files({ 'bad.yaml': 'loom: 1\nname: x\nversion: 1\ntypes:\n  a: {fields: {b: {type: string}\n' });
    assert.throws(() => loadDeclaration(join(dir, 'bad.yaml')), (error: unknown) => error instanceof DeclarationError && error.problems[0]!.line >= 5);
  });
});

describe('a served declaration', () => {
  let s: DeclaredServer;
  let token: string;
  before(async () => {
    s = await declaredServer(`
loom: 1
name: versions
version: 1
principal: person
scopes:
  see_links: See the links a person keeps.
types:
  person:
    default_fields: [name]
    fields:
      name: {type: string}
      handle: {type: string, since: v2.5, description: Added in v2.5.}
      legacy: {type: string, until: v2.3, description: Gone from v2.3.}
    edges:
      links: {to: person, scope: see_links}
      pins: {to: pin, backed_by: pin.by, write: {create: pin, allow: owner, scope: see_links, set: {by: parent}}}
  pin:
    owner: by
    fields:
      by: {type: ref<person>}
      target: {type: ref<person>, required: true, write: create_only}
      about: {type: ref<vault>, write: create_only}
  vault:
    read: never
    fields:
      name: {type: string}
`);
    await s.put([
      { type: 'person', key: 'ana', data: { name: 'Ana', handle: 'ana', legacy: 'old' } },
      { type: 'person', key: 'ben', data: { name: 'Ben' } },
      { type: 'vault', key: 'v', data: { name: 'hidden' } },
    ]);
    token = await s.token('ana');
  });
  after(() => s.close());

  it('serves a field only in the API versions its since/until allow', async () => {
    const at = async (version: string, field: string) => (await s.server.get(`/${version}/me`, { fields: field, access_token: token })).body;
    assert.equal((await at('v2.4', 'handle')).error.code, 100);
    assert.equal((await at('v2.5', 'handle')).handle, 'ana');
    assert.equal((await at('v2.2', 'legacy')).legacy, 'old');
    assert.equal((await at('v2.3', 'legacy')).error.code, 100);
  });

  it('takes a ref parameter as the id the client was shown, and refuses nodes it cannot see or of another type', async () => {
    const pin = async (target: string) => (await s.server.form('/me/pins', { target, access_token: token })).body;
    const made = await pin(s.shown('ben'));
    assert.match(made.id, /^\d+$/, JSON.stringify(made));
    const read = await s.get(`/${made.id}`, token, { fields: 'target{name}' });
    assert.deepEqual(read.body.target, { name: 'Ben', id: s.shown('ben') });
    const hidden = (await s.server.form('/me/pins', { target: s.shown('ben'), about: String(s.id('v')), access_token: token })).body;
    assert.match(hidden.error.message, /The parameter about names no vault you can see/);
    assert.match((await pin(String(s.id('ben')))).error.message, /target must be a node id/, 'an internal id is not a shown one');
    assert.match((await pin(made.id)).error.message, /target/);
  });

  it("lists the schema's own permissions, with their descriptions, in the Explorer", async () => {
    const reply = await s.server.get('/explorer/permissions.json');
    const all = (reply.body.groups as Array<{ permissions: Array<{ name: string; description: string; edges: string[] }> }>).flatMap((group) => group.permissions);
    assert.deepEqual(all.find((permission) => permission.name === 'see_links'), {
      name: 'see_links',
      description: 'See the links a person keeps.',
      fields: [],
      edges: ['person/links'],
      writes: ['person/pins'],
    });
    assert.ok(!all.some((permission) => permission.name === 'user_posts'), 'no Graph permissions');
  });

  it('resumes an interrupted backfill from the position it saved', async () => {
    const people = Array.from({ length: EVOLUTION_BATCH + 5 }, (_, index) => ({ type: 'person', key: `p${index}`, data: { name: `P${index}` } }));
    await s.put(people);
    const links = people.map((person) => ({ assoc: 'person.links', from: 'ana', to: person.key }));
    await s.put(links);
    // As if an apply had filled the first batch and stopped: the saved position is past ana's first links.
    const first = [...people].map((person) => s.id(person.key)).sort((a, b) => a - b)[9]!;
    const after = [s.id('ana'), 'person.links', first];
    await s.store.setSetting('schema.backfill', JSON.stringify({ version: 1, steps: [{ from: 'inverse', assoc: 'person.linked_by', of: 'person.links' }], done: 0, after }));
    const written = await resumeBackfill(s.store);
    assert.equal(written, people.length - 10, 'only the links after the saved position');
    assert.equal(await s.store.getSetting('schema.backfill'), '');
    const counts = await s.store.getCounts('person.linked_by', [s.id(people[people.length - 1]!.key), s.id('p0')]);
    assert.equal(counts.get(s.id(people[people.length - 1]!.key)), 1);
  });
});
