/**
 * The import rules that `npm run lint` enforces (.dependency-cruiser.cjs and
 * scripts/check-structure.mjs), tried on a scratch tree that breaks each of them once: a rule
 * that stopped matching would otherwise let its forbidden imports through in silence.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';

const PROJECT = resolve('.');
const LEAF_FILES = new Set(['ids', 'errors', 'config']);
const ROOMS = [
  'http', 'dispatch', 'auth', 'query', 'schema', 'declared', 'engine', 'graph', 'store', 'clock', 'ids',
  'errors', 'config', 'control', 'webhooks', 'media', 'server', 'seed', 'cli', 'testing',
];

/** The rooms each room never imports, as the architecture states them. */
const NEVER: Record<string, string[]> = {
  dispatch: ['http', 'graph', 'cli'],
  auth: ['http', 'dispatch', 'engine', 'graph'],
  query: ROOMS.filter((room) => !['query', 'errors'].includes(room)),
  schema: ['store', 'declared', 'graph', 'engine', 'http', 'dispatch'],
  declared: ['engine', 'graph', 'http', 'dispatch'],
  engine: ['graph', 'http', 'dispatch', 'declared', 'webhooks', 'seed', 'cli'],
  graph: ['http', 'cli', 'testing'],
  store: ROOMS.filter((room) => !['store', 'errors', 'config', 'clock', 'ids'].includes(room)),
  clock: ROOMS.filter((room) => room !== 'clock'),
  ids: ROOMS.filter((room) => room !== 'ids'),
  control: ['http', 'cli', 'graph'],
  webhooks: ['http', 'cli', 'graph'],
  media: ['http', 'cli', 'graph'],
  cli: ['testing'],
  testing: ['cli'],
};
/** Imports the architecture allows, which must stay quiet. */
const ALLOWED = [
  ['store', 'errors'], ['store', 'clock'], ['store', 'ids'], ['query', 'errors'], ['engine', 'schema'], ['engine', 'store'],
  ['dispatch', 'engine'], ['http', 'dispatch'], ['server', 'http'], ['cli', 'server'], ['testing', 'server'], ['graph', 'engine'],
];

/** Where a probe of room `from` that imports room `to` lives, and the module it imports. */
const target = (room: string) => (LEAF_FILES.has(room) ? `src/${room}.ts` : `src/${room}/target.ts`);
const probe = (from: string, to: string) => `src/${from}/imports-${to}.ts`;
const specifier = (from: string, to: string) => {
  const path = target(to).replace(/\.ts$/, '.js');
  return LEAF_FILES.has(to) ? `../${path.slice('src/'.length)}` : from === to ? './target.js' : `../${to}/target.js`;
};

const scratch = mkdtempSync(join(tmpdir(), 'loom-import-rules-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), text);
}

/** Runs one of the project's checks inside the scratch tree. */
function check(args: string[]) {
  const ran = spawnSync(process.execPath, args, { cwd: scratch, encoding: 'utf8' });
  return { status: ran.status, output: ran.stdout + ran.stderr };
}

describe('the import rules of npm run lint', () => {
  symlinkSync(join(PROJECT, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['src'] }));
  for (const room of ROOMS) write(target(room), 'export const here = 1;\n');
  const pairs = [...Object.entries(NEVER).flatMap(([from, never]) => never.map((to) => [from, to] as const)), ...ALLOWED];
  // A leaf file cannot import from a folder of its own; its probes sit in a folder of that name.
  for (const [from, to] of pairs) write(probe(from, to), `import { here } from '${specifier(from, to)}';\nexport const seen = here;\n`);
  write('src/dispatch/imports-fastify.ts', "import fastify from 'fastify';\nexport const made = fastify;\n");
  write('src/http/one.ts', "import { two } from './two.js';\nexport const one = () => two();\n");
  write('src/http/two.ts', "import { one } from './one.js';\nexport const two = (): unknown => one;\n");

  const cruised = check([join(PROJECT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), 'src', '--config', join(PROJECT, '.dependency-cruiser.cjs'), '--output-type', 'err']);

  it('reports every import the architecture forbids, and fails', () => {
    assert.notEqual(cruised.status, 0, cruised.output);
    for (const [from, never] of Object.entries(NEVER)) {
      for (const to of never) {
        const line = new RegExp(`error [\\w-]+: ${probe(from, to).replace(/[.]/g, '\\.')} → ${target(to).replace(/[.]/g, '\\.')}`);
        assert.match(cruised.output, line, `${from} → ${to} is reported`);
      }
    }
  });

  it('reports dispatch importing Fastify, and files importing each other in a circle', () => {
    assert.match(cruised.output, /error dispatch-never-imports-fastify: src\/dispatch\/imports-fastify\.ts → .*node_modules\/fastify\//);
    assert.match(cruised.output, /error no-circular: src\/http\/(one|two)\.ts/);
  });

  it('lets the imports the architecture allows pass', () => {
    for (const [from, to] of ALLOWED) assert.doesNotMatch(cruised.output, new RegExp(`${probe(from!, to!)} →`), `${from} → ${to} passes`);
  });

  it('reports rooms in a circle, long files and large store interfaces that are not known', () => {
    write('src/store/roles.ts', `export interface Everything {\n${Array.from({ length: 21 }, (_, i) => `  member${i}(): void;`).join('\n')}\n}\n`);
    write('src/seed/long.ts', `${Array.from({ length: 451 }, (_, i) => `export const line${i} = ${i};`).join('\n')}\n`);
    const structure = check([join(PROJECT, 'scripts/check-structure.mjs')]);
    assert.equal(structure.status, 1, structure.output);
    assert.match(structure.output, /error rooms import each other in a circle: (.+, )?cli, (.+, )?testing/);
    assert.match(structure.output, /error src\/seed\/long\.ts has more than 450 lines/);
    assert.match(structure.output, /error src\/store\/roles\.ts Everything has more than 20 members/);
  });
});
