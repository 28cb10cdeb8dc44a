import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { recordConsent, revokePermission } from '../../src/auth/grants.js';
import { graphSchema } from '../../src/graph/graph-schema.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

describe('grant changes made at the same time', () => {
  let store: SqliteStore;
  const app = 5;
  const { permissions } = graphSchema();

  before(() => {
    store = openSqliteStore(join(mkdtempSync(join(tmpdir(), 'loom-grants-')), 'grants.db'));
  });
  after(() => store.close());

  const statuses = async (userId: number) =>
    Object.fromEntries(((await store.getGrants(app, [userId])).get(userId) ?? []).map((grant) => [grant.scope, grant.status]));

  it('keeps both of two consents given at once in two dialogs', async () => {
    const user = 101;
    const [first, second] = await Promise.all([
      recordConsent(store, permissions, app, user, { granted: ['email'], declined: [] }),
      recordConsent(store, permissions, app, user, { granted: ['user_posts'], declined: ['user_photos'] }),
    ]);
    assert.deepEqual(await statuses(user), {
      email: 'granted',
      public_profile: 'granted',
      user_photos: 'declined',
      user_posts: 'granted',
    });
    assert.deepEqual(first, ['public_profile', 'email']);
    assert.deepEqual(second, ['public_profile', 'email', 'user_posts'], 'the later answer sees the earlier one');
  });

  it('keeps a revocation made while another permission is granted', async () => {
    const user = 102;
    await recordConsent(store, permissions, app, user, { granted: ['email', 'user_friends'], declined: [] });
    await Promise.all([
      revokePermission(store, permissions, app, user, 'email'),
      recordConsent(store, permissions, app, user, { granted: ['user_likes'], declined: [] }),
      revokePermission(store, permissions, app, user, 'user_friends'),
    ]);
    assert.deepEqual(await statuses(user), {
      email: 'declined',
      public_profile: 'granted',
      user_friends: 'declined',
      user_likes: 'granted',
    });
  });

  it('leaves a permission never asked for unasked when it is revoked', async () => {
    const user = 103;
    await recordConsent(store, permissions, app, user, { granted: [], declined: [] });
    await revokePermission(store, permissions, app, user, 'user_birthday');
    assert.deepEqual(await statuses(user), { public_profile: 'granted' });
  });
});
