/**
 * Narrowing changes over stored data: `schema apply` refuses them and points to `schema check
 * --data`, which lists each stored value the new rules reject (id, key, field, value, reason);
 * `--force` applies them anyway.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openStore } from '../../src/store/open-store.js';
import { loom } from '../helpers/cli.js';
import { scratchLocation } from '../helpers/test-store.js';

const V1 = `
loom: 1
name: pantry
version: 1
types:
  jar:
    read: token
    default_fields: [label]
    fields:
      label: {type: string, max_length: 30}
      kind: {type: enum, values: [glass, tin, box]}
      grams: {type: float}
      note: {type: string}
`;
/** Every field narrowed: a shorter label, no more tins, whole grams, a note required. */
const V2 = V1.replace('version: 1', 'version: 2')
  .replace('max_length: 30', 'max_length: 10')
  .replace('values: [glass, tin, box]', 'values: [glass, box]')
  .replace('grams: {type: float}', 'grams: {type: int}')
  .replace('note: {type: string}', 'note: {type: string, required: true}');
/** Widening only: a longer label and one more kind. */
const V3 = V1.replace('version: 1', 'version: 3').replace('max_length: 30', 'max_length: 60').replace('[glass, tin, box]', '[glass, tin, box, bag]');

const DATA = [
  { format: 'loom-data', version: 1, schema: 'pantry', schema_version: 1 },
  { node: 'jar', key: 'rice', fields: { label: 'Basmati rice, long', kind: 'tin', grams: 900.5, note: 'top shelf' } },
  { node: 'jar', key: 'oats', fields: { label: 'Oats', kind: 'glass', grams: 500, note: 'for porridge' } },
  { node: 'jar', key: 'beans', fields: { label: 'Beans', kind: 'box', grams: 250 } },
];

function pantry(): { dir: string; db: string; v2: string } {
  const dir = mkdtempSync(join(tmpdir(), 'loom-narrowing-'));
  for (const [name, text] of Object.entries({ 'v1.loom.yaml': V1, 'v2.loom.yaml': V2, 'v3.loom.yaml': V3 })) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'pantry.ndjson'), DATA.map((line) => JSON.stringify(line)).join('\n') + '\n');
  const db = scratchLocation();
  assert.equal(loom('schema', 'apply', join(dir, 'v1.loom.yaml'), '--db', db).code, 0);
  const imported = loom('import', '--data', join(dir, 'pantry.ndjson'), '--db', db);
  assert.equal(imported.code, 0, imported.stderr);
  return { dir, db, v2: join(dir, 'v2.loom.yaml') };
}

async function idsByKey(db: string): Promise<Map<string, number>> {
  const store = openStore(db);
  try {
    return await store.findDeclaredIds('jar', ['rice', 'oats', 'beans']);
  } finally {
    await store.close();
  }
}

describe('narrowing changes over stored data', () => {
  it('check --data lists every stored value the new rules reject, and exits 1', async () => {
    const { db, v2 } = pantry();
    const ids = await idsByKey(db);
    const run = loom('schema', 'check', '--data', v2, '--db', db, '--json');
    assert.equal(run.code, 1, run.stderr);
    const result = JSON.parse(run.stdout) as { narrowings: Array<{ field: string }>; offenders: Array<{ id: string; key: string; field: string; value: unknown; reason: string }>; total: number };
    assert.deepEqual(result.narrowings.map((narrowing) => narrowing.field).sort(), ['jar.grams', 'jar.kind', 'jar.label', 'jar.note']);
    const found = result.offenders.map(({ id, key, field, value, reason }) => [key, id, field, value, reason]).sort((a, b) => `${String(a[0])}${String(a[2])}`.localeCompare(`${String(b[0])}${String(b[2])}`));
    assert.deepEqual(found, [
      ['beans', String(ids.get('beans')), 'jar.note', null, 'has no value, and the field is now required'],
      ['rice', String(ids.get('rice')), 'jar.grams', 900.5, 'not a whole number'],
      ['rice', String(ids.get('rice')), 'jar.kind', 'tin', '"tin" is not one of glass, box'],
      ['rice', String(ids.get('rice')), 'jar.label', 'Basmati rice, long', 'longer than 10 characters'],
    ]);
    assert.equal(result.total, 4);
    const text = loom('schema', 'check', v2, '--data', '--db', db);
    assert.equal(text.code, 1);
    assert.ok(text.stdout.includes(`jar.kind of node ${ids.get('rice')} (key "rice") = "tin": "tin" is not one of glass, box`), text.stdout);
  });

  it('apply refuses a narrowing change with a pointer to check --data, and records it with --force', () => {
    const { db, v2 } = pantry();
    const diff = loom('schema', 'diff', v2, '--db', db);
    assert.match(diff.stdout, /! field jar\.label: max_length 30 → 10/);
    const refused = loom('schema', 'apply', v2, '--db', db);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /narrows fields that hold data/);
    assert.match(refused.stderr, /! field jar\.kind: enum values removed: tin/);
    assert.ok(refused.stderr.includes(`"loom schema check ${v2} --data"`), refused.stderr);
    assert.equal(JSON.parse(loom('schema', 'apply', v2, '--db', db, '--json', '--force').stdout).version, 2, 'the refused apply recorded nothing');
  });

  it('finds nothing to check in a widening change, which applies as it is', () => {
    const { dir, db } = pantry();
    const v3 = join(dir, 'v3.loom.yaml');
    const check = loom('schema', 'check', v3, '--data', '--db', db);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /narrows no field of the applied schema/);
    assert.equal(loom('schema', 'apply', v3, '--db', db).code, 0);
  });
});
