/**
 * The docs cannot rot: every ```sh block of every page under docs/ runs, in order, in one bash
 * session per page, against a scratch server on a scratch database seeded as `npm start` seeds
 * it. `http://localhost:8080` in a page becomes the scratch server's address. Blocks fenced as
 * ```shell are shown, not run: they start long-running servers or need what a test cannot have.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { startServeWithEnv } from '../helpers/cli.js';

const DOCS = 'docs';
/** A page whose commands run longer than this has a command that never ends (a server, a --follow). */
const PAGE_TIMEOUT_MS = 180_000;
const directory = mkdtempSync(join(tmpdir(), 'loom-docs-'));
after(() => rmSync(directory, { recursive: true, force: true }));

/** The ```sh blocks of a Markdown page, in order. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

const pages = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => ({ name, blocks: shellBlocks(readFileSync(join(DOCS, name), 'utf8')) }))
  .filter((page) => page.blocks.length > 0);

describe('the shell commands of the docs', () => {
  it('finds the pages that have commands to run', () => {
    const found = pages.map((page) => page.name);
    for (const name of ['adding-a-node-type.md', 'cli.md', 'export-format.md', 'getting-started.md']) assert.ok(found.includes(name), `${name} in ${found}`);
  });

  for (const page of pages) {
    it(`run as written in docs/${page.name}`, async () => {
      // A working directory of its own, where `bin/loom` is Loom's and files the page writes land.
      const cwd = join(directory, page.name.replace(/\.md$/, ''));
      mkdirSync(join(cwd, 'bin'), { recursive: true });
      symlinkSync(resolve('bin/loom'), join(cwd, 'bin/loom'));
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
