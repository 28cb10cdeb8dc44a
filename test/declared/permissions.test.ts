/**
 * A team's own permissions (`permissions:`): checked with file, line and key when loaded, offered
 * by the sign-in dialog in the versions they name, granted through it or `loom token`, and
 * enforced on the fields that name them, exactly as the Graph API's catalogue is.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hashPassword } from '../../src/auth/passwords.js';
import { compileDeclaration } from '../../src/declared/compile.js';
import { DeclarationError, loadDeclaration } from '../../src/declared/load.js';
import { runDialog } from '../helpers/browser.js';
import { declaredServer, type DeclaredServer } from './declared-server.js';

const PAYROLL = `
loom: 1
name: payroll
version: 1
principal: person
permission_groups:
  Work: What the person does for a living.
permissions:
  basic: {description: Who the person is., always_granted: true}
  see_salary: {description: The salary the person earns., group: Work}
  see_bonus: {description: The bonus the person was paid this year., group: Work, since: v2.3}
types:
  person:
    id: app_scoped
    key: handle
    fields:
      handle: {type: string}
      name: {type: string}
      salary: {type: int, scope: see_salary}
      bonus: {type: int, scope: see_bonus}
`;

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1/payroll/callback';

/** The problems loading and compiling this declaration finds, as `key: message` lines. */
function problemsOf(yaml: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'loom-permissions-'));
  writeFileSync(join(dir, 'schema.loom.yaml'), yaml);
  try {
    const loaded = loadDeclaration(join(dir, 'schema.loom.yaml'));
    compileDeclaration(loaded.declaration, undefined, undefined, loaded.locate);
  } catch (error) {
    assert.ok(error instanceof DeclarationError, String(error));
    return error.problems.map((problem) => `${problem.line} ${problem.key}: ${problem.message}`);
  }
  return [];
}

describe('a declaration with permissions of its own', () => {
  it('names the line and key of a bad entry', () => {
    const schema = (permissions: string) => `loom: 1\nname: p\nversion: 1\npermission_groups:\n  Work: Work.\npermissions:\n${permissions}types:\n  thing:\n    fields:\n      size: {type: int, scope: see_size}\n`;
    assert.deepEqual(problemsOf(schema('  see_size: {descripton: The size.}\n')), [
      '7 permissions.see_size.description: is required',
      '7 permissions.see_size.descripton: is not a key Loom knows here',
    ]);
    assert.deepEqual(problemsOf(schema('  see_size: 12\n')), ['7 permissions.see_size: must be a string or a mapping']);
    assert.deepEqual(problemsOf(schema('  see_size: {description: The size., group: Play, since: v2.9.1}\n')), [
      '7 permissions.see_size.since: must match pattern "^v[0-9]+\\.[0-9]+$"',
    ]);
    assert.deepEqual(problemsOf(schema('  see_size: {description: The size., group: Play, since: v1.9, reads: see_all}\n')), [
      '7 permissions.see_size.group: "Play" is not one of the permission_groups',
      '7 permissions.see_size.since: "v1.9" is not a published API version',
      '7 permissions.see_size.reads: "see_all" is not another declared permission',
    ]);
    assert.deepEqual(problemsOf(schema('  me: {description: Me., always_granted: true}\n  you: {description: You., always_granted: true}\n  see_size: The size.\n')), [
      '8 permissions.you.always_granted: me is always granted already; at most one permission is',
    ]);
    assert.deepEqual(problemsOf(schema('  see_size: {description: The size., page_tokens: true}\n  act: {description: Act as a page., page_tokens: true}\n')), [
      '8 permissions.act.page_tokens: see_size gives page tokens already; at most one permission does',
    ]);
    assert.deepEqual(problemsOf(schema('  see_sizes: The sizes.\n')), ['11 types.thing.fields.size.scope: "see_size" is not one of the declared permissions']);
    assert.deepEqual(problemsOf(`${schema('  see_size: The size.\n')}scopes:\n  see_size: The size.\n`), ['7 permissions.see_size: is declared under scopes too']);
  });

  it('keeps permissions in an included file, and the short form of scopes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loom-permissions-'));
    writeFileSync(join(dir, 'main.loom.yaml'), 'loom: 1\nname: p\nversion: 1\ninclude: [permissions.yaml]\nscopes:\n  see_age: The age.\ntypes:\n  thing:\n    fields:\n      size: {type: int, scope: see_size}\n');
    writeFileSync(join(dir, 'permissions.yaml'), 'permissions:\n  see_size: {description: The size., until: v2.3}\n');
    const loaded = loadDeclaration(join(dir, 'main.loom.yaml'));
    const { permissions } = compileDeclaration(loaded.declaration, undefined, undefined, loaded.locate);
    assert.deepEqual(permissions.list.map((permission) => permission.name), ['public_profile', 'see_age', 'see_size']);
    assert.equal(permissions.alwaysGranted, 'public_profile', 'none marked always granted: public_profile is');
    assert.equal(permissions.pageTokens, undefined, 'none marked page_tokens: no permission gives page tokens, so a page_token field shows nothing');
    assert.deepEqual(permissions.offered('v2.3').map((permission) => permission.name), ['public_profile', 'see_age']);
    assert.deepEqual(loaded.locate('permissions.see_size.until'), { file: join(dir, 'permissions.yaml'), line: 2 });
  });
});

describe('the permission that gives page tokens', () => {
  it('is the one marked page_tokens, so a page_token field answers to it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loom-permissions-'));
    writeFileSync(join(dir, 'main.loom.yaml'), 'loom: 1\nname: p\nversion: 1\npermissions:\n  see_size: The size.\n  act_for_team: {description: Act for the teams the person leads., page_tokens: true}\ntypes:\n  thing:\n    fields:\n      size: {type: int, scope: see_size}\n');
    const loaded = loadDeclaration(join(dir, 'main.loom.yaml'));
    const { permissions } = compileDeclaration(loaded.declaration, undefined, undefined, loaded.locate);
    assert.equal(permissions.pageTokens, 'act_for_team');
    assert.equal(permissions.get('see_size')?.pageTokens, undefined);
  });
});

describe('a team permission granted through the dialog and tokens', () => {
  let s: DeclaredServer;
  before(async () => {
    s = await declaredServer(PAYROLL);
    await s.put([{ type: 'person', key: 'ana', data: { handle: 'ana', name: 'Ana', salary: 5200, bonus: 300 } }]);
    await s.store.setCredentials({ userId: s.id('ana'), email: 'ana@payroll.example', passwordHash: await hashPassword(PASSWORD) });
  });
  after(() => s.close());

  /** Signs Ana in through the dialog, ticks `tick` of `scope`, and exchanges the code for a token. */
  async function dialogToken(scope: string, tick: string[]): Promise<{ token: string; consent: string }> {
    const { location, pages } = await runDialog(s.server.url, {
      clientId: String(s.app.id),
      redirectUri: REDIRECT,
      scope,
      email: 'ana@payroll.example',
      password: PASSWORD,
      tick,
    });
    const code = location.searchParams.get('code') ?? assert.fail(location.href);
    const exchanged = await s.server.get('/v2.4/oauth/access_token', { client_id: String(s.app.id), client_secret: s.app.secret, redirect_uri: REDIRECT, code });
    assert.equal(exchanged.status, 200, exchanged.text);
    return { token: exchanged.body.access_token, consent: pages[1]!.html };
  }

  it('shows what the schema says each permission means, and the always granted one as required', async () => {
    const { consent } = await dialogToken('see_salary', ['see_salary']);
    assert.match(consent, /value="basic" checked disabled> <span><code>basic<\/code><span class="what">Who the person is\.<\/span><\/span><span class="tag">required<\/span>/);
    assert.match(consent, /value="see_salary" checked> <span><code>see_salary<\/code><span class="what">The salary the person earns\.<\/span>/);
  });

  it('reads a field with the permission granted, and not without it', async () => {
    const granted = await dialogToken('see_salary', ['see_salary']);
    assert.deepEqual((await s.get('/v2.4/me', granted.token, { fields: 'name,salary' })).body, { name: 'Ana', salary: 5200, id: s.shown('ana') });
    const debug = await s.server.get('/v2.4/debug_token', { input_token: granted.token, access_token: s.appToken });
    assert.deepEqual(debug.body.data.scopes, ['basic', 'see_salary'], 'the always granted one first');

    const declined = await dialogToken('see_salary', []);
    const read = await s.get('/v2.4/me', declined.token, { fields: 'name,salary' });
    assert.deepEqual(read.body, { name: 'Ana', id: s.shown('ana') }, 'the field is left out, as the Graph API leaves out a field without its permission');
    const cli = await s.token('ana', ['see_salary']);
    assert.equal((await s.get('/v2.4/me', cli, { fields: 'salary' })).body.salary, 5200, 'loom token grants it as the dialog does');
  });

  it('offers a permission in the versions it names only, and no permission the schema does not declare', async () => {
    const ask = (version: string, scope: string) =>
      s.server.fetch(`${s.server.url}/${version}/dialog/oauth?${new URLSearchParams({ client_id: String(s.app.id), redirect_uri: REDIRECT, scope })}`);
    assert.equal((await ask('v2.3', 'see_bonus')).status, 200);
    const early = await ask('v2.2', 'see_bonus');
    assert.equal(early.status, 400);
    assert.match(early.text, /Invalid Scopes: see_bonus\./);
    assert.match((await ask('v2.4', 'public_profile,user_posts')).text, /Invalid Scopes: public_profile, user_posts\./);
  });

  it("lists the schema's groups in the Explorer, with what each permission unlocks", async () => {
    const reply = await s.server.get('/explorer/permissions.json');
    assert.deepEqual(reply.body.groups, [
      {
        name: 'Work',
        description: 'What the person does for a living.',
        permissions: [
          { name: 'see_salary', description: 'The salary the person earns.', fields: ['person.salary'], edges: [], writes: [] },
          { name: 'see_bonus', description: 'The bonus the person was paid this year.', fields: ['person.bonus'], edges: [], writes: [] },
        ],
      },
      { name: 'Other', description: 'Permissions this schema declares.', permissions: [{ name: 'basic', description: 'Who the person is.', fields: [], edges: [], writes: [] }] },
    ]);
  });
});
