import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { LOOM, loom } from '../helpers/cli.js';
import { scratchLocation, testStoreKind } from '../helpers/test-store.js';

const SEED = ['--users', '20', '--seed', 'fixtures', '--now', '2026-01-31'];
/** Settings that belong to a process or a server, not to the graph: a seeding claim and signing keys. */
const NOT_GRAPH_SETTINGS = new Set(['demo.seeding', 'token_for_business_key', 'dialog.signing_key']);

/** Seeds a new database with `loom seed` and answers its `loom export --secrets`, one parsed record per line. */
function seededExport(location: string, args: readonly string[] = SEED): Array<Record<string, unknown>> {
  const seeded = loom('seed', '--db', location, ...args);
  assert.equal(seeded.code, 0, seeded.stderr);
  const exported = spawnSync(process.execPath, [LOOM, 'export', '--db', location, '--secrets'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, LOOM_DB: '' },
  });
  assert.equal(exported.status, 0, exported.stderr);
  return exported.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The export's one record of this kind. */
function recordOf(records: Array<Record<string, unknown>>, kind: string): Record<string, unknown> {
  const found = records.find((record) => record.record === kind);
  assert.ok(found, `the export holds a ${kind} record`);
  return found;
}

/** The export without what is random by design: the app secret and what is not graph at all. */
function graphOf(records: Array<Record<string, unknown>>): string {
  const kept = records
    .filter((record) => !(record.record === 'setting' && NOT_GRAPH_SETTINGS.has(String(record.key))))
    .map((record) => (record.record === 'app' ? { ...record, secret: undefined } : record));
  return kept.map((record) => JSON.stringify(record)).join('\n');
}

/** The export of a graph seeded with SEED, made once and compared by more than one test. */
let seededOnce: Array<Record<string, unknown>> | undefined;
function firstSeeded(): Array<Record<string, unknown>> {
  seededOnce ??= seededExport(scratchLocation());
  return seededOnce;
}

describe('loom seed --seed S --now T', () => {
  it(`gives the same graph on every run on ${testStoreKind}, apart from the app secret`, () => {
    const first = firstSeeded();
    const second = seededExport(scratchLocation());
    assert.ok(first.length > 1000, 'the export holds the graph');
    assert.equal(graphOf(first), graphOf(second));

    const [firstApp, secondApp] = [recordOf(first, 'app'), recordOf(second, 'app')];
    assert.notEqual(firstApp.secret, secondApp.secret, 'the app secret never follows from the seed');
    assert.equal(firstApp.idKey, secondApp.idKey, 'the key of app-scoped ids follows from the seed');
    const [firstLogin, secondLogin] = [recordOf(first, 'credentials'), recordOf(second, 'credentials')];
    assert.equal(firstLogin.passwordHash, secondLogin.passwordHash, 'the demo password salt follows from the seed');
  });

  it('gives another graph for another seed or another --now', () => {
    const base = graphOf(firstSeeded());
    const otherSeed = graphOf(seededExport(scratchLocation(), ['--users', '20', '--seed', 'other', '--now', '2026-01-31']));
    const otherNow = graphOf(seededExport(scratchLocation(), ['--users', '20', '--seed', 'fixtures', '--now', '2026-02-01']));
    assert.notEqual(otherSeed, base);
    assert.notEqual(otherNow, base);
  });

  it('gives the same graph on SQLite and on PostgreSQL', { skip: testStoreKind !== 'postgres' && 'runs in the PostgreSQL half' }, () => {
    // This half's own graph is PostgreSQL's.
    assert.equal(graphOf(firstSeeded()), graphOf(seededExport(scratchLocation('sqlite'))));
  });

  it('refuses a --now that is not a time', () => {
    const refused = loom('seed', '--db', scratchLocation(), '--now', 'yesterday');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--now must be unix seconds or an ISO 8601 date/);
  });
});
