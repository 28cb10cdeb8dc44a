/**
 * `npm start` without a terminal, stopped as a process manager or a script stops it: the server
 * must stop with npm, whether the signal reaches npm alone or its whole process group. The server
 * runs with the V8 settings of bin/loom's first line.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort } from '../helpers/cli.js';

const directory = mkdtempSync(join(tmpdir(), 'loom-npm-start-'));
after(() => rmSync(directory, { recursive: true, force: true }));

/** The live (not zombie) processes of a process group, read from /proc. */
function groupMembers(group: number): string[] {
  const members: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces, so fields count from its closing parenthesis.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === group && state !== 'Z') members.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`);
  }
  return members;
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function until(condition: () => boolean | Promise<boolean>, what: string, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts `npm start` in a process group of its own, as a shell starts a job, with no terminal; interrupts it once it serves. */
async function serveAndInterrupt(target: 'npm' | 'group'): Promise<void> {
  const port = await freePort();
  const args = ['start', '--', '--port', String(port), '--db', join(directory, `${port}.db`), '--media-dir', join(directory, `${port}-media`), '--no-demo'];
  const npm = spawn('npm', args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, LOOM_DB: '' } });
  let output = '';
  npm.stdout.on('data', (chunk) => (output += chunk));
  npm.stderr.on('data', (chunk) => (output += chunk));
  let exited = false;
  const closed = new Promise<void>((resolve) => npm.once('close', () => resolve()));
  void closed.then(() => (exited = true));
  try {
    await until(() => /This database holds no demo graph/.test(output) || exited, `npm start did not serve: ${output}`, 120_000);
    assert.equal(exited, false, output);
    assert.equal(await portIsFree(port), false, 'the server listens');
    // Started as bin/loom itself, whose first line gives the server its young generation.
    const server = groupMembers(npm.pid!).find((member) => / bin\/loom serve /.test(member));
    assert.match(server ?? '', /^\d+ node --max-semi-space-size=48 bin\/loom serve /, groupMembers(npm.pid!).join('; '));

    process.kill(target === 'npm' ? npm.pid! : -npm.pid!, 'SIGINT');
    await until(() => exited, `npm start did not end on a SIGINT to ${target}; still running: ${groupMembers(npm.pid!).join('; ')}`, 30_000);
    await until(() => groupMembers(npm.pid!).length === 0, `left running: ${groupMembers(npm.pid!).join('; ')}`, 10_000);
    assert.equal(await portIsFree(port), true, 'the port is free again');
  } finally {
    // Whatever the outcome, nothing of this test outlives it.
    if (groupMembers(npm.pid!).length > 0) process.kill(-npm.pid!, 'SIGKILL');
    await closed;
  }
}

describe('npm start without a terminal', { skip: !existsSync('/proc/self/stat') && 'reads process groups from /proc' }, () => {
  it('stops the server when SIGINT reaches npm alone, or its whole process group', async () => {
    await serveAndInterrupt('npm');
    await serveAndInterrupt('group');
  });
});
