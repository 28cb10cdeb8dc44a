/**
 * `loom import --skip-invalid`: bad lines are left out and listed with their number and reason,
 * the good ones land, and the exit status says not everything did; without the flag the first
 * bad line stops the import and nothing of its batch is written.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openStore } from '../../src/store/open-store.js';
import { loom } from '../helpers/cli.js';
import { scratchLocation } from '../helpers/test-store.js';

const SCHEMA = `
loom: 1
name: pantry
version: 1
types:
  jar:
    read: token
    default_fields: [label]
    fields:
      label: {type: string, required: true, max_length: 20}
      grams: {type: int, min: 0, max: 5000}
    edges:
      next_to: {to: jar}
`;

const LINES = [
  '{"format":"loom-data","version":1,"schema":"pantry","schema_version":1}',
  '{"node":"jar","key":"rice","fields":{"label":"Rice","grams":900}}',
  '{"node":"jar","key":"flour","fields":{"label":"Flour","grams":99999}}',
  'not json at all',
  '{"node":"jar","key":"oats","fields":{"label":"Oats"}}',
  '{"node":"shelf","key":"top","fields":{}}',
  '{"edge":"jar.next_to","from":"rice","to":"oats"}',
  '{"edge":"jar.next_to","from":"rice","to":"sugar"}',
];

function pantry(): { dir: string; db: string; data: string } {
  const dir = mkdtempSync(join(tmpdir(), 'loom-skip-invalid-'));
  writeFileSync(join(dir, 'pantry.loom.yaml'), SCHEMA);
  const db = scratchLocation();
  const applied = loom('schema', 'apply', join(dir, 'pantry.loom.yaml'), '--db', db);
  assert.equal(applied.code, 0, applied.stderr);
  const data = join(dir, 'pantry.ndjson');
  writeFileSync(data, `${LINES.join('\n')}\n`);
  return { dir, db, data };
}

async function keysIn(db: string, keys: string[]): Promise<string[]> {
  const store = openStore(db);
  try {
    return [...(await store.findDeclaredIds('jar', keys)).keys()].sort();
  } finally {
    await store.close();
  }
}

describe('loom import --skip-invalid', () => {
  it('imports the good lines, lists each bad one with its number and reason beside the file, and exits 1', async () => {
    const { db, data } = pantry();
    const run = loom('import', '--data', data, '--db', db, '--skip-invalid');
    assert.equal(run.code, 1, run.stderr);
    const report = `${data}.rejected.ndjson`;
    assert.ok(run.stdout.includes(`4 lines left out, listed in ${report}`), run.stdout);
    assert.match(run.stdout, /2 nodes created, 0 updated, 1 edges/);
    const rejected = readFileSync(report, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { file: string; line: number; reason: string });
    assert.deepEqual(rejected.map((entry) => [entry.file, entry.line]).sort((a, b) => Number(a[1]) - Number(b[1])), [
      ['pantry.ndjson', 3],
      ['pantry.ndjson', 4],
      ['pantry.ndjson', 6],
      ['pantry.ndjson', 8],
    ]);
    const reason = (line: number) => rejected.find((entry) => entry.line === line)!.reason;
    assert.match(reason(3), /grams must be at most 5000/);
    assert.equal(reason(4), 'not a JSON object');
    assert.equal(reason(6), 'the schema has no type "shelf"');
    assert.equal(reason(8), 'no line defines the jar "sugar", and the database holds none');
    assert.deepEqual(await keysIn(db, ['rice', 'flour', 'oats']), ['oats', 'rice']);
  });

  it('writes the report where --report says, and exits 0 with an empty one when every line is good', async () => {
    const { dir, db, data } = pantry();
    writeFileSync(data, `${LINES.slice(0, 2).join('\n')}\n`);
    const report = join(dir, 'elsewhere.ndjson');
    const run = loom('import', '--data', data, '--db', db, '--skip-invalid', '--report', report);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.includes(`0 lines left out, listed in ${report}`), run.stdout);
    assert.equal(readFileSync(report, 'utf8'), '');
    assert.equal(existsSync(`${data}.rejected.ndjson`), false);
    assert.deepEqual(await keysIn(db, ['rice']), ['rice']);
  });

  it('skips bad CSV rows the same way', async () => {
    const { dir, db } = pantry();
    const csv = join(dir, 'jars.csv');
    writeFileSync(csv, 'key,label,grams\nrice,Rice,900\nflour,Flour,99999\n,No key,1\nbeans,Beans\noats,Oats,\n');
    const run = loom('import', '--nodes', `jar=${csv}`, '--db', db, '--skip-invalid');
    assert.equal(run.code, 1, run.stderr);
    const rejected = readFileSync(`${csv}.rejected.ndjson`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { line: number; reason: string });
    assert.deepEqual(rejected.map((entry) => entry.line).sort(), [3, 4, 5]);
    assert.match(rejected.find((entry) => entry.line === 5)!.reason, /the row has 2 cells; the header names 3 columns/);
    assert.deepEqual(await keysIn(db, ['rice', 'flour', 'beans', 'oats']), ['oats', 'rice']);
  });

  it('without the flag, stops at the first bad line with nothing of its batch written', async () => {
    const { db, data } = pantry();
    const run = loom('import', '--data', data, '--db', db);
    assert.equal(run.code, 2);
    // A line that is not even JSON is found as the batch is read, before the batch is checked.
    assert.match(run.stderr, /pantry\.ndjson line 4: not a JSON object \(nothing of its batch/);
    assert.deepEqual(await keysIn(db, ['rice', 'oats']), []);
  });
});
