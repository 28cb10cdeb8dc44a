import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/store/open-store.js';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-open-store-'));
after(() => fs.rmSync(directory, { recursive: true, force: true }));

describe('openStore', () => {
  it('opens a SQLite store for a file path', async () => {
    const file = path.join(directory, 'loom.db');
    const store = openStore(file);
    try {
      await store.setSetting('opened', 'yes');
      assert.equal(await store.getSetting('opened'), 'yes');
    } finally {
      await store.close();
    }
    assert.ok(fs.existsSync(file));
  });

  it('explains that PostgreSQL is not built yet, without echoing the password', () => {
    for (const url of ['postgres://loom:hunter2@db.example/loom', 'POSTGRESQL://db.example/loom']) {
      assert.throws(
        () => openStore(url),
        (error: Error) => /PostgreSQL support is not built yet/.test(error.message) && !error.message.includes('hunter2'),
      );
    }
    assert.equal(fs.existsSync(path.join(directory, 'postgres:')), false, 'no file is created for a URL');
  });
});
