/**
 * The JavaScript of the docs runs as written. Every ```js block of the README, docs/ and the
 * examples opens with a comment that names its file and the command that runs it
 * (`// app.mjs: node app.mjs`). Each is saved under that name in a reader's project of its own
 * (a fresh `npm init -y` project with the packages it imports, see `makeReaderProject`) and its
 * command run there by bash, as a reader runs it after the README's
 * `export TOKEN=$(bin/loom token)`, against a scratch server on the demo graph that is also the
 * intercepting proxy (`serve --intercept`): the address the docs assume, `http://127.0.0.1:8080`
 * or `http://localhost:8080`, becomes the scratch server's. An example passes when its command
 * ends with status 0 and printed no error answer.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServeWithEnv, type RunningServe } from '../helpers/cli.js';
import { fencedBlocks, makeReaderProject, markdownPages } from './doc-blocks.js';

/** An example still running after this long never ends (a server, an await that never settles). */
const EXAMPLE_TIMEOUT_MS = 120_000;
/** Examples that serve until stopped, and the test that starts one and talks to it. */
const SERVERS = new Map([['receiver.mjs', 'test/webhooks/docs-receiver.test.ts']]);
/** What the docs call Loom's address. */
const DOC_ADDRESSES = ['http://127.0.0.1:8080', 'http://localhost:8080'];
/** An error answer printed, as JSON or as Node prints an object. */
const ERROR_ANSWER = /\{"error":\{|\berror: \{/;

interface Example {
  page: string;
  file: string;
  command: string;
  code: string;
}

function examplesOf(page: string): Example[] {
  return fencedBlocks(readFileSync(page, 'utf8'), ['js', 'javascript']).map((code) => {
    const header = /^\/\/ ([\w.-]+\.[cm]?js): (.+)$/m.exec(code.split('\n', 1)[0]!);
    assert.ok(header, `a JavaScript block of ${page} opens with "// <file>: <command>", not: ${code.split('\n', 1)[0]}`);
    return { page, file: header[1]!, command: header[2]!, code };
  });
}

const examples = markdownPages().flatMap(examplesOf);
const directory = mkdtempSync(join(tmpdir(), 'loom-docs-js-'));
after(() => rmSync(directory, { recursive: true, force: true }));

/**
 * The command's environment as a reader's shell has it: `LOOM_DB` (so `bin/loom` reads the scratch
 * server's database) and `TOKEN`, no proxy of the machine's, no test runner of ours.
 */
function readerEnv(server: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...server };
  for (const name of ['NODE_TEST_CONTEXT', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']) delete env[name];
  return env;
}

/** Runs a bash script in its own process group, killed whole if it outlives the timeout. */
function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  const child = spawn('bash', ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => {
    output += `\n[still running after ${EXAMPLE_TIMEOUT_MS / 1000} s: stopped]`;
    process.kill(-child.pid!, 'SIGKILL');
  }, EXAMPLE_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    }),
  );
}

describe('the JavaScript examples of the docs', () => {
  let server: RunningServe;
  let serverEnv: Record<string, string>;
  before(async () => {
    const home = join(directory, 'server');
    mkdirSync(home);
    serverEnv = { LOOM_DB: join(home, 'loom.db'), LOOM_MEDIA_DIR: join(home, 'loom-media') };
    server = await startServeWithEnv(serverEnv, '--intercept');
    // The README's `export TOKEN=$(bin/loom token)`, once for every example.
    const token = spawnSync(process.execPath, ['bin/loom', 'token'], { encoding: 'utf8', env: { ...process.env, ...serverEnv } });
    assert.equal(token.status, 0, token.stderr);
    serverEnv.TOKEN = token.stdout.trim();
  });
  after(() => server?.stop());

  it('finds them, each with its file and command', () => {
    const pages = new Set(examples.map((example) => example.page));
    for (const page of ['README.md', 'docs/sdks.md', 'docs/testing.md', 'docs/webhooks.md']) assert.ok(pages.has(page), `${page} in ${[...pages].join(', ')}`);
    for (const [file, test] of SERVERS) {
      assert.ok(examples.some((example) => example.file === file), `${file} is still shown`);
      assert.ok(existsSync(test), `${test} runs ${file}`);
    }
  });

  examples.forEach((example, index) => {
    if (SERVERS.has(example.file)) return;
    it(`${example.page}: ${example.file} runs as written`, async () => {
      const cwd = join(directory, `${index}-${example.file}`);
      makeReaderProject(cwd);
      const here = (text: string) => DOC_ADDRESSES.reduce((result, address) => result.replaceAll(address, server.url), text);
      writeFileSync(join(cwd, example.file), here(example.code));
      const script = ['set -euo pipefail', here(example.command)].join('\n');
      // Temporary files (startLoom's databases) stay under the test's folder, even from an example it had to kill.
      const temporary = join(directory, `${index}-tmp`);
      mkdirSync(temporary);
      const { status, output } = await runScript(script, cwd, { ...readerEnv(serverEnv), TMPDIR: temporary });
      assert.equal(status, 0, `${example.page}: ${example.command}\n${output}`);
      assert.doesNotMatch(output, ERROR_ANSWER, `${example.page}: ${example.command} printed an error answer:\n${output}`);
    });
  });
});
