import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { newNonce, openTicket, sealTicket, ticketKey, type DialogTicket } from '../../src/auth/dialog-ticket.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const ticket: DialogTicket = {
  stage: 'sign-in',
  appId: 7,
  redirectUri: 'https://app.example/cb',
  scopes: ['email'],
  state: 'st',
  responseType: 'code',
  nonce: newNonce(),
  expiresAt: 1_000,
};

describe('dialog tickets', () => {
  it('open only when untouched, signed with the same key and not expired', () => {
    const key = Buffer.alloc(32, 1);
    const sealed = sealTicket(key, ticket);
    assert.deepEqual(openTicket(key, sealed, 999), ticket);
    assert.equal(openTicket(key, sealed, 1_000), undefined, 'expired');
    assert.equal(openTicket(Buffer.alloc(32, 2), sealed, 0), undefined, 'another key');
    const [body, signature] = sealed.split('.');
    const altered = Buffer.from(JSON.stringify({ ...ticket, userId: 1, stage: 'consent' })).toString('base64url');
    assert.equal(openTicket(key, `${altered}.${signature}`, 0), undefined, 'altered claims');
    for (const junk of [undefined, null, '', body!, `${sealed}.x`, `${body}.`]) assert.equal(openTicket(key, junk, 0), undefined);
  });

  it('are signed with a key the installation keeps, the same for every server process', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'loom-ticket-')), 'db.sqlite');
    const first = openSqliteStore(path);
    const second = openSqliteStore(path);
    try {
      const key = await ticketKey(first);
      assert.equal(key.length, 32);
      assert.deepEqual(await ticketKey(second), key);
      assert.deepEqual(await ticketKey(first), key);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
