/**
 * `loom schema apply` against a database that is being served: every serving process answers the
 * very next request by the version applied (no polling), and applies made at once take turns.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openStore } from '../../src/store/open-store.js';
import { loom, spawnLoom, startServe } from '../helpers/cli.js';
import { scratchLocation, selectRows } from '../helpers/test-store.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const V1 = `
loom: 1
name: notes
version: 1
principal: writer
scopes:
  notes: See a writer's notes.
types:
  writer:
    read: token
    default_fields: [name]
    fields:
      name: {type: string}
`;
const V2 = V1.replace('version: 1', 'version: 2').replace('      name: {type: string}\n', '      name: {type: string}\n      motto: {type: string}\n');

/**
 * A code module that takes its time to load: an apply compiling it stays inside its turn long
 * enough that two applies started together overlap, whatever the order they start in.
 */
const SLOW_CODE = 'await new Promise((resolve) => setTimeout(resolve, 1500));\nexport default {};\n';

function declarationFiles(slowCode = false): { v1: string; v2: string } {
  const dir = mkdtempSync(join(tmpdir(), 'loom-live-apply-'));
  const withCode = (text: string) => (slowCode ? text.replace('principal: writer', 'principal: writer\ncode: ./slow.code.mjs') : text);
  writeFileSync(join(dir, 'slow.code.mjs'), SLOW_CODE);
  writeFileSync(join(dir, 'v1.loom.yaml'), withCode(V1));
  writeFileSync(join(dir, 'v2.loom.yaml'), withCode(V2));
  return { v1: join(dir, 'v1.loom.yaml'), v2: join(dir, 'v2.loom.yaml') };
}

const onPostgres = (db: string) => db.startsWith('postgres');

describe('schema apply while serving', () => {
  it('switches every worker to the applied version on the next request', async () => {
    const files = declarationFiles();
    const db = scratchLocation();
    assert.equal(loom('schema', 'apply', files.v1, '--db', db).code, 0);
    const store = openStore(db);
    await store.write([
      { op: 'createObject', object: { type: 'writer', owner: null, createdTime: 1, updatedTime: 1, data: { name: 'Ana', motto: 'Less is more' } } },
      { op: 'setDeclaredKey', type: 'writer', key: 'ana', id: { ref: 0 } },
    ]);
    await store.close();
    const issued = loom('token', '--db', db, '--principal', 'ana', '--scopes', 'notes', '--json');
    assert.equal(issued.code, 0, issued.stderr);
    const { access_token: token, user_id: userId } = JSON.parse(issued.stdout) as { access_token: string; user_id: string };
    const serve = await startServe('--db', db, '--no-demo', '--workers', '2');
    // A fresh connection per request, so the requests reach both workers.
    const motto = async () => {
      const reply = await fetch(`${serve.url}/me?fields=motto&access_token=${token}`, { headers: { connection: 'close' } });
      return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
    };
    try {
      const before = await motto();
      assert.equal(before.status, 400, 'version 1 has no motto');
      assert.match(String((before.body.error as { message: string }).message), /motto/);
      const applied = loom('schema', 'apply', files.v2, '--db', db, '--json');
      assert.equal(applied.code, 0, applied.stderr);
      assert.equal((JSON.parse(applied.stdout) as { version: number }).version, 2);
      const expected = { motto: 'Less is more', id: userId };
      if (!onPostgres(db)) {
        // SQLite: the version every request reads moved in the apply's own transaction.
        for (let request = 0; request < 6; request += 1) assert.deepEqual((await motto()).body, expected);
      } else {
        // PostgreSQL: the notification reaches each worker's listener a moment after the commit;
        // wait (boundedly) until six requests in a row, spread over both workers, are served by it.
        const deadline = Date.now() + PATIENCE_MS;
        for (let inARow = 0; inARow < 6; ) {
          const reply = await motto();
          inARow = reply.status === 200 ? inARow + 1 : 0;
          if (reply.status === 200) assert.deepEqual(reply.body, expected);
          else assert.ok(Date.now() < deadline, `the workers did not switch: ${JSON.stringify(reply.body)}`);
        }
      }
    } finally {
      await serve.stop();
    }
  });

  it('records two applies made at once one after the other, each whole', async () => {
    const files = declarationFiles(true);
    const db = scratchLocation();
    const runs = await Promise.all([files.v1, files.v2].map((file) => spawnLoom('schema', 'apply', file, '--db', db, '--json').exited));
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const versions = runs.map((run) => (JSON.parse(run.stdout) as { version: number }).version).sort();
    assert.deepEqual(versions, [1, 2]);
    const store = openStore(db);
    try {
      const rows = await selectRows<{ version: number; hash: string; text: string; app_id: number | string }>(store, 'SELECT version, hash, text, app_id FROM schema_versions ORDER BY version');
      assert.deepEqual(rows.map((row) => Number(row.version)), [1, 2]);
      for (const row of rows) assert.equal(row.hash, createHash('sha256').update(row.text).digest('hex'), 'each version is recorded whole');
      // The second built on the first: one app serves both.
      assert.equal(String(rows[0]!.app_id), String(rows[1]!.app_id));
      const [apps] = await selectRows<{ n: number | string }>(store, 'SELECT count(*) AS n FROM apps');
      assert.equal(Number(apps!.n), 1);
    } finally {
      await store.close();
    }
  });
});
