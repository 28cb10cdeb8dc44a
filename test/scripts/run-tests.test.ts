import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

describe('the test runner script', () => {
  it('fails with a clear message when its filter matches no test file', () => {
    const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', 'no-test-file-is-named-like-this'], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /No test file under dist\/test matches "no-test-file-is-named-like-this"; nothing was run/);
    assert.doesNotMatch(run.stdout, /===/, 'no test run was started');
  });
});
