import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

describe('the test runner script', () => {
  it('fails with a clear message when its filter matches no test file', () => {
    const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', 'no-test-file-is-named-like-this'], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /No test file under dist\/test matches "no-test-file-is-named-like-this"; nothing was run/);
    assert.doesNotMatch(run.stdout, /===/, 'no test run was started');
  });

  it("leaves the machine's NODE_EXTRA_CA_CERTS out of the test files' processes", () => {
    // Node warns at start of a certificate file it cannot read (the runner itself does, on its
    // stderr): a test file started with it would say so in its report, on the runner's stdout.
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: '/no/such/folder/authorities.pem' };
    const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', 'scripts/free-port'], { encoding: 'utf8', env });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /=== ok sqlite: dist\/test\/scripts\/free-port\.test\.js/);
    assert.doesNotMatch(run.stdout, /Ignoring extra certs/);
  });

  it('removes what a test file left in the temporary folder when the file ends', () => {
    // This file makes temporary folders and leaves them; the run must leave none in TMPDIR.
    const folder = mkdtempSync(join(tmpdir(), 'loom-runner-'));
    try {
      const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', 'declared/declaration-file'], { encoding: 'utf8', env: { ...process.env, TMPDIR: folder } });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /=== ok sqlite: dist\/test\/declared\/declaration-file\.test\.js/);
      assert.deepEqual(readdirSync(folder), []);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
