import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { freePort, LOOM } from '../helpers/cli.js';
import { pngBytes } from '../helpers/images.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const dir = mkdtempSync(join(tmpdir(), 'loom-kill-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `loom serve` and resolves with the demo token it prints once it listens. */
async function serve(db: string, mediaDir: string, port: number): Promise<{ child: ChildProcess; token: string }> {
  const child = spawn(process.execPath, [LOOM, 'serve', '--db', db, '--media-dir', mediaDir, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const token = /Access token \(valid 2 hours\): (\S+)/.exec(output)?.[1];
    if (token && output.includes('A new token')) return { child, token };
    assert.ok(Date.now() < deadline && child.exitCode === null, `serve did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('durability', () => {
  it('keeps every acknowledged write when the server is killed with SIGKILL right after', async () => {
    const db = join(dir, 'graph.db');
    const mediaDir = join(dir, 'media');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/v2.4`;
    const first = await serve(db, mediaDir, port);
    const form = (path: string, fields: Record<string, string>) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ access_token: first.token, ...fields }),
      });

    const posts = new Map<string, string>();
    const comments = new Map<string, string>();
    let photo: { id: string; bytes: Buffer } | undefined;
    try {
      // A burst of concurrent writes of every kind; only those answered 200 count as acknowledged.
      const writes: Array<Promise<void>> = [];
      for (let i = 0; i < 120; i++) {
        writes.push(
          form('/me/feed', { message: `burst ${i}` }).then(async (reply) => {
            if (reply.status !== 200) return;
            const { id } = (await reply.json()) as { id: string };
            posts.set(id, `burst ${i}`);
            const liked = await form(`/${id}/likes`, {});
            assert.equal(liked.status, 200);
            const comment = await form(`/${id}/comments`, { message: `on ${i}` });
            if (comment.status === 200) comments.set(((await comment.json()) as { id: string }).id, `on ${i}`);
          }),
        );
      }
      const upload = new FormData();
      upload.set('access_token', first.token);
      const bytes = pngBytes(16, 9, 4);
      upload.set('source', new Blob([new Uint8Array(bytes)]), 'burst.png');
      writes.push(
        fetch(`${base}/me/photos`, { method: 'POST', body: upload }).then(async (reply) => {
          if (reply.status === 200) photo = { id: ((await reply.json()) as { id: string }).id, bytes };
        }),
      );
      await Promise.all(writes);
    } finally {
      first.child.kill('SIGKILL');
      await exited(first.child);
    }
    assert.equal(first.child.signalCode, 'SIGKILL');
    assert.equal(posts.size, 120, 'every post of the burst was acknowledged');
    assert.ok(photo, 'the photo upload was acknowledged');

    const integrity = new Database(db, { readonly: true });
    try {
      assert.equal(integrity.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      integrity.close();
    }

    const second = await serve(db, mediaDir, port);
    try {
      const token = second.token;
      for (const [id, message] of posts) {
        const reply = await fetch(`${base}/${id}?fields=message,likes.summary(true).limit(0),comments.summary(true).limit(0)&access_token=${token}`);
        assert.equal(reply.status, 200, id);
        const body = (await reply.json()) as { message: string; likes: { summary: { total_count: number } }; comments: { summary: { total_count: number } } };
        assert.equal(body.message, message);
        assert.equal(body.likes.summary.total_count, 1, `${id} keeps its like`);
        assert.equal(body.comments.summary.total_count, 1, `${id} keeps its comment`);
      }
      for (const [id, message] of comments) {
        const reply = await fetch(`${base}/${id}?fields=message&access_token=${token}`);
        assert.equal(((await reply.json()) as { message: string }).message, message);
      }
      const photoReply = await fetch(`${base}/${photo.id}?fields=source&access_token=${token}`);
      const { source } = (await photoReply.json()) as { source: string };
      assert.ok(Buffer.from(await (await fetch(source)).arrayBuffer()).equals(photo.bytes), 'the photo bytes survived');
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
  });
});
