import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/store/open-store.js';
import { redactPassword } from '../../src/store/redact-password.js';
import { isPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { isSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { scratchLocation, testStoreKind } from '../helpers/test-store.js';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-open-store-'));
after(() => fs.rmSync(directory, { recursive: true, force: true }));

describe('openStore', () => {
  it('opens a SQLite store for a file path', async () => {
    const file = path.join(directory, 'loom.db');
    const store = openStore(file);
    try {
      assert.ok(isSqliteStore(store));
      await store.setSetting('opened', 'yes');
      assert.equal(await store.getSetting('opened'), 'yes');
    } finally {
      await store.close();
    }
    assert.ok(fs.existsSync(file));
  });

  it(`opens the store the test location names (${testStoreKind}) and reads back what it wrote`, async () => {
    const location = scratchLocation();
    const store = openStore(location);
    try {
      assert.ok((testStoreKind === 'postgres' ? isPostgresStore : isSqliteStore)(store));
      await store.setSetting('opened', location);
      assert.equal(await store.getSetting('opened'), location);
    } finally {
      await store.close();
    }
  });

  it('reports an unreachable PostgreSQL server at the first call, without echoing the password', async () => {
    for (const url of ['postgres://loom:hunter2@127.0.0.1:1/loom', 'POSTGRESQL://loom:hunter2@127.0.0.1:1/loom']) {
      const store = openStore(url);
      assert.ok(isPostgresStore(store));
      await assert.rejects(store.getSetting('x'), (error: Error) => !error.message.includes('hunter2'));
      await store.close();
    }
    assert.equal(fs.existsSync(path.join(directory, 'postgres:')), false, 'no file is created for a URL');
  });

  it('refuses a schema name that is not a plain identifier', () => {
    assert.throws(() => openStore('postgres://127.0.0.1/loom?schema=a;drop'), /not a plain lower-case name/);
    assert.throws(() => openStore('postgres://127.0.0.1/loom?pool=0'), /pool size/);
  });

  it('hides the password of a URL in messages', () => {
    assert.equal(redactPassword('postgres://loom:hunter2@db.example/loom'), 'postgres://loom:***@db.example/loom');
    assert.equal(redactPassword('postgres://db.example/loom'), 'postgres://db.example/loom');
    assert.equal(redactPassword('./loom.db'), './loom.db');
    assert.equal(redactPassword('postgres://loom:p@ss@db.example:5432/loom?schema=x'), 'postgres://loom:***@db.example:5432/loom?schema=x');
    assert.equal(redactPassword('postgresql://loom:a%40b@db.example/loom'), 'postgresql://loom:***@db.example/loom');
    // Not a URL the parser accepts (a password with "/" ends the host early; an unclosed IPv6 address).
    assert.equal(redactPassword('postgres://loom:se/c@ret@db.example/loom'), 'postgres://loom:***@db.example/loom');
    assert.equal(redactPassword('postgres://loom:se@cret@[::1/loom'), 'postgres://loom:***@[::1/loom');
  });
});
