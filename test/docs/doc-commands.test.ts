/**
 * The docs cannot rot: every ```sh block of every page under docs/ runs, in order, in one bash
 * session per page, against a scratch server on a scratch database seeded as `npm start` seeds
 * it. `http://localhost:8080` in a page becomes the scratch server's address. Blocks fenced as
 * ```shell are shown, not run: they start long-running servers or need what a test cannot have.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startServeWithEnv } from '../helpers/cli.js';
import { fencedBlocks, makeReaderProject } from './doc-blocks.js';

const DOCS = 'docs';
/** A page whose commands run longer than this has a command that never ends (a server, a --follow). */
const PAGE_TIMEOUT_MS = 300_000;
const directory = mkdtempSync(join(tmpdir(), 'loom-docs-'));
after(() => rmSync(directory, { recursive: true, force: true }));

const pages = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => ({ name, blocks: fencedBlocks(readFileSync(join(DOCS, name), 'utf8'), ['sh']) }))
  .filter((page) => page.blocks.length > 0);

describe('the shell commands of the docs', () => {
  it('finds the pages that have commands to run', () => {
    const found = pages.map((page) => page.name);
    for (const name of ['adding-a-node-type.md', 'cli.md', 'export-format.md', 'getting-started.md']) assert.ok(found.includes(name), `${name} in ${found.join(', ')}`);
  });

  for (const page of pages) {
    it(`run as written in docs/${page.name}`, async () => {
      // A reader's working directory of its own, where files the page writes land.
      const cwd = join(directory, page.name.replace(/\.md$/, ''));
      makeReaderProject(cwd);
      // Each database the page makes keeps its media beside it, in the page's directory.
      const env = { LOOM_DB: join(cwd, 'loom.db'), LOOM_MEDIA_DIR: '' };
      const server = await startServeWithEnv(env);
      try {
        const script = ['set -euo pipefail', ...page.blocks].join('\n').replaceAll('http://localhost:8080', server.url);
        const ran = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: PAGE_TIMEOUT_MS });
        assert.equal(ran.status, 0, `docs/${page.name} failed:\n${ran.stderr}\n${ran.stdout.slice(-2000)}`);
        // curl succeeds on an error answer too: the pages show none, so any is a stale example.
        assert.doesNotMatch(ran.stdout, /\{"error":\{/, `docs/${page.name} got an error answer:\n${ran.stdout.slice(-2000)}`);
      } finally {
        await server.stop();
      }
    });
  }
});
