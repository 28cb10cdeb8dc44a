import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runLoad } from '../../bench/processes.js';

describe('the benchmark load generator', () => {
  const paths: string[] = [];
  let server: Server;
  let base: string;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loom-load-'));
    server = createServer((request, response) => {
      paths.push(request.url!);
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks each value of a rotation once, in order from the given one, across all connections', async () => {
    paths.length = 0;
    const file = join(dir, 'values.txt');
    writeFileSync(file, `${Array.from({ length: 1_000_000 }, (_, index) => `v${index}`).join('\n')}\n`);
    const summary = await runLoad({ url: base, seconds: 1, connections: 10, rotate: { template: '/people/{}?fields=id', file, from: 500 } });
    assert.equal(summary.failures, 0);
    assert.ok(summary.requests > 0);
    assert.equal(new Set(paths).size, paths.length, 'no path asked twice');
    assert.ok(paths.length <= summary.rotated, 'every path asked came from the rotation');
    const indexes = paths.map((path) => Number(/^\/people\/v(\d+)\?fields=id$/.exec(path)![1])).sort((a, b) => a - b);
    assert.ok(indexes[0]! >= 500 && indexes[indexes.length - 1]! < 500 + summary.rotated);
  });

  it('starts the list over after its end', async () => {
    paths.length = 0;
    const file = join(dir, 'three.txt');
    writeFileSync(file, 'a\nb\nc\n');
    const summary = await runLoad({ url: base, seconds: 1, connections: 2, rotate: { template: '/{}', file, from: 0 } });
    assert.ok(summary.rotated > 3);
    assert.deepEqual([...new Set(paths)].sort(), ['/a', '/b', '/c']);
  });

  it('ends early once enough holds, with the summary of what it did', async () => {
    paths.length = 0;
    const summary = await runLoad({ url: `${base}/hello`, seconds: 600, connections: 5 }, undefined, () => paths.length >= 100);
    assert.ok(summary.requests > 0);
    assert.equal(summary.failures, 0);
  });
});
