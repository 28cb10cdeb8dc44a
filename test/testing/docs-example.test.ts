import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/** The node:test file docs/testing.md shows, run exactly as written, as a package user would run it. */
describe('docs/testing.md', () => {
  it('shows a node:test file with fbgraph that passes against startLoom()', () => {
    const markdown = readFileSync('docs/testing.md', 'utf8');
    const blocks = [...markdown.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!);
    const example = blocks.find((block) => block.includes("from 'node:test'") && block.includes("from 'fbgraph'"));
    assert.ok(example, 'the page shows a node:test file using fbgraph');
    // Inside the package, so that `loom/testing` resolves to this build through the package's exports.
    const directory = join('dist', 'docs-examples');
    mkdirSync(directory, { recursive: true });
    const file = join(directory, 'fbgraph.test.mjs');
    writeFileSync(file, example);
    try {
      // A runner started by a test would otherwise report to this runner instead of its output.
      const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
      const run = spawnSync(process.execPath, ['--test', '--test-reporter=spec', file], { encoding: 'utf8', env });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /ℹ pass 4\n/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
