/**
 * Claims on the webhook outbox, through two stores open on one database as two processes hold
 * them: a claim whose lease ran out and was taken over queues nothing, so every change becomes
 * one notification, whichever process makes it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ObjectId } from '../../src/ids.js';
import type { Store } from '../../src/store/store.js';
import type { NewDelivery } from '../../src/store/webhook-store.js';
import { openLocation, scratchLocation } from '../helpers/test-store.js';

const LEASE = 60;

describe('webhook change claims', () => {
  let first: Store;
  let second: Store;
  let person: ObjectId;
  let made = 0;
  before(async () => {
    const location = scratchLocation();
    first = await openLocation(location);
    second = await openLocation(location);
    const { results } = await first.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: { name: 'Ada' } } }]);
    person = results[0] as ObjectId;
  });
  after(async () => {
    await first.close();
    await second.close();
  });

  async function recordChanges(count: number, time: number): Promise<void> {
    await first.write(Array.from({ length: count }, () => ({ op: 'recordChange' as const, subject: person, field: 'name', time })));
  }

  /** A delivery whose body names what it was made from, to find it among the queued ones. */
  function delivery(label: string, time: number): NewDelivery {
    made += 1;
    return { appId: 7, object: 'user', callbackUrl: 'https://example.com/hook', body: `${label}-${made}`, entryCount: 1, createdTime: time };
  }

  const queuedBodies = async (label: string) =>
    (await first.webhooks.listDeliveries({ limit: 100 })).map((queued) => queued.body).filter((body) => body.startsWith(`${label}-`));

  it('queues the deliveries of a claim that still holds its changes, and removes the changes', async () => {
    await recordChanges(3, 1000);
    const claimed = await first.webhooks.claimChanges(10, 1000, LEASE);
    assert.equal(claimed.length, 3);
    assert.ok(claimed.every((change) => change.leaseUntil === 1000 + LEASE));
    assert.equal(await first.webhooks.queueDeliveries([delivery('held', 1000)], claimed), true);
    assert.equal((await queuedBodies('held')).length, 1);
    assert.deepEqual(await second.webhooks.claimChanges(10, 5000, LEASE), [], 'the changes are gone');
  });

  it('queues nothing when another process took a change over after the lease ran out, and lets the rest go', async () => {
    await recordChanges(2, 2000);
    const stale = await first.webhooks.claimChanges(10, 2000, LEASE);
    assert.equal(stale.length, 2);
    // The first process stalls past its lease; the second takes over one change of the two.
    const later = 2000 + LEASE + 5;
    const taken = await second.webhooks.claimChanges(1, later, LEASE);
    assert.deepEqual(taken.map((change) => change.id), [stale[0]!.id]);

    assert.equal(await first.webhooks.queueDeliveries([delivery('stale', 2000)], stale), false);
    assert.deepEqual(await queuedBodies('stale'), [], 'the stalled claim queued nothing');

    // The change the stalled claim still held is free again at once, not only when its lease ends.
    const released = await second.webhooks.claimChanges(10, later, LEASE);
    assert.deepEqual(released.map((change) => change.id), [stale[1]!.id]);
    assert.equal(await second.webhooks.queueDeliveries([delivery('taken', later)], [...taken, ...released]), true);
    assert.equal((await queuedBodies('taken')).length, 1);
    assert.deepEqual(await first.webhooks.claimChanges(10, later + 10 * LEASE, LEASE), [], 'every change was notified once');
  });

  it('tells a second claim of the same row by its later lease, even on a frozen clock', async () => {
    await recordChanges(1, 3000);
    const [stale] = await first.webhooks.claimChanges(10, 3000, LEASE);
    // The clock jumps past the lease and stays there: the new claim's lease ends later than the old one's.
    const [taken] = await second.webhooks.claimChanges(10, 3000 + LEASE, LEASE);
    assert.ok(stale && taken && taken.id === stale.id && taken.leaseUntil > stale.leaseUntil);
    assert.equal(await first.webhooks.queueDeliveries([delivery('frozen-stale', 3000)], [stale]), false);
    assert.equal(await second.webhooks.queueDeliveries([delivery('frozen-taken', 3000 + LEASE)], [taken]), true);
    assert.deepEqual(await queuedBodies('frozen-stale'), []);
    assert.equal((await queuedBodies('frozen-taken')).length, 1);
  });
});
