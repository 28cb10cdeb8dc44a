import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { IdTakenError, SEQUENCE_ID_LIMIT } from '../../src/store/auth-store.js';
import { openScratchStore } from '../helpers/test-store.js';

const FIXED = 117_743_971_608_120;

describe('the store administers apps', () => {
  let store: Store;
  before(async () => (store = await openScratchStore()));
  after(() => store.close());

  const newApp = (name: string, id?: number) =>
    store.createApp({ id, name, secret: `${name}-secret`, idKey: '00112233445566778899aabbccddeeff', createdTime: 1000 });
  const newObject = async () =>
    (await store.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: {} } }])).results[0] as number;

  it('creates an app under a fixed id without moving the id sequence, and refuses the id a second time', async () => {
    const before = await newObject();
    const fixed = await newApp('Fixed', FIXED);
    assert.equal(fixed.id, FIXED);
    assert.equal((await store.getApps([FIXED])).get(FIXED)?.name, 'Fixed');
    assert.equal((await store.getObjects([FIXED])).get(FIXED)?.type, 'application');
    const next = await newObject();
    assert.equal(next, before + 1, 'the sequence goes on where it was');
    const plain = await newApp('Plain');
    assert.ok(plain.id < SEQUENCE_ID_LIMIT);
    await assert.rejects(newApp('Again', FIXED), IdTakenError);
  });

  it('changes an app in one call: secret, proof, redirect URIs and its public settings', async () => {
    const app = await newApp('Changing');
    const changed = await store.updateApp(
      app.id,
      { secret: 'new-secret-value', requireProof: true, redirectUris: ['https://x.example/cb'], data: { name: 'Changed', restrictions: { age: '21+' } } },
      2000,
    );
    assert.deepEqual(
      { name: changed?.name, secret: changed?.secret, requireProof: changed?.requireProof, redirectUris: changed?.redirectUris },
      { name: 'Changed', secret: 'new-secret-value', requireProof: true, redirectUris: ['https://x.example/cb'] },
    );
    const object = (await store.getObjects([app.id])).get(app.id)!;
    assert.deepEqual(object.data.restrictions, { age: '21+' });
    assert.equal(object.updatedTime, 2000);
    assert.equal(await store.updateApp(987_654, { secret: 'x' }, 2000), undefined);
  });

  it('deletes an app with its grants and tokens, keeping tombstones of its id and user tokens', async () => {
    const app = await newApp('Doomed', FIXED + 1);
    const user = await newObject();
    await store.setGrants(app.id, [{ userId: user, grants: [{ scope: 'public_profile', status: 'granted' }] }]);
    await store.saveTokens([{ hash: 'h-doomed', kind: 'user', appId: app.id, userId: user, scopes: ['public_profile'], issuedAt: 1, expiresAt: 0 }]);
    await store.write([{ op: 'addAssoc', type: 'test_users', id1: app.id, id2: user, time: 1 }]);
    assert.equal(await store.deleteApp(app.id, 3000), true);
    assert.equal((await store.getApps([app.id])).size, 0);
    assert.equal((await store.getObjects([app.id])).size, 0);
    assert.equal((await store.getGrants(app.id, [user])).size, 0);
    assert.equal(await store.findToken('h-doomed'), undefined);
    assert.deepEqual(await store.findRevokedToken('h-doomed'), { hash: 'h-doomed', appId: app.id, userId: user, expiresAt: 0, scopes: ['public_profile'] });
    assert.deepEqual(await store.getDeletedApps([app.id, user]), new Set([app.id]));
    assert.equal((await store.getObjects([user])).size, 1, 'its test users stay');
    assert.equal(await store.deleteApp(app.id, 3000), false);
    await assert.rejects(newApp('Reuse', FIXED + 1), IdTakenError, "a deleted app's id stays taken");
  });
});
