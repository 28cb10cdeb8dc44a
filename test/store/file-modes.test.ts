import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MediaStore } from '../../src/media/media-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const directory = mkdtempSync(join(tmpdir(), 'loom-modes-'));
after(() => rmSync(directory, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('files Loom creates', () => {
  it('makes the SQLite database and its -wal and -shm files readable by their owner only', async () => {
    const path = join(directory, 'loom.db');
    const store = openSqliteStore(path);
    try {
      await store.initSetting('probe', 'value');
      for (const suffix of ['', '-wal', '-shm']) assert.equal(modeOf(path + suffix), 0o600, `loom.db${suffix}`);
    } finally {
      await store.close();
    }
  });

  it('keeps uploaded media in directories only their owner can enter', async () => {
    const root = join(directory, 'media');
    const media = new MediaStore(root);
    const key = await media.stage(Buffer.from('image bytes'));
    assert.equal(modeOf(root), 0o700);
    assert.equal(modeOf(join(root, 'photos')), 0o700);
    assert.equal(modeOf(join(root, 'photos', key.slice(0, 2))), 0o700);
  });
});
