import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newNonce, openTicket, sealTicket, ticketKey, type DialogTicket } from '../../src/auth/dialog-ticket.js';
import type { Store } from '../../src/store/store.js';
import { openLocation, scratchLocation } from '../helpers/test-store.js';

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
    const path = scratchLocation();
    const first = await openLocation(path);
    const second = await openLocation(path);
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

  it('are signed with one key even when another process makes it between a check and a write', async () => {
    const path = scratchLocation();
    const first = await openLocation(path);
    const second = await openLocation(path);
    try {
      // The first process's reads of the key setting let the second one make its key meanwhile.
      let secondKey: Buffer | undefined;
      const racing = Object.create(first, {
        getSetting: {
          value: async (key: string) => {
            const value = await first.getSetting(key);
            secondKey ??= await ticketKey(second);
            return value;
          },
        },
      }) as Store;
      const firstKey = await ticketKey(racing);
      assert.deepEqual(firstKey, secondKey ?? (await ticketKey(second)));
      assert.deepEqual(await ticketKey(first), firstKey);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
