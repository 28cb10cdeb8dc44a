import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loom } from '../helpers/cli.js';
import type { Fixture } from '../helpers/fixture.js';
import { eventually } from '../helpers/patience.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { useFixtureServer } from '../helpers/fixture-server.js';

describe('loom webhooks', () => {
  let fixture: Fixture;
  let receiver: Receiver;
  const served = useFixtureServer({ webhooks: { deliver: true, allowPrivate: true, windowMs: 50 } });
  before(async () => {
    ({ fixture } = served);
    receiver = await startReceiver();
    await fixture.store.webhooks.saveSubscription({
      appId: fixture.app.id, object: 'user', callbackUrl: receiver.url, fields: ['feed'], verifyToken: '', active: true, createdTime: fixture.now,
    });
  });
  after(async () => {
    await receiver.close();
  });

  it('lists subscriptions, queues a test notification, shows its delivery and sends it again', async () => {
    const listed = loom('webhooks', 'list', '--db', fixture.path);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`${fixture.app.id}  user +active +${receiver.url.replace(/[.]/g, '\\.')}  feed`));

    const sent = loom('webhooks', 'send-test', String(fixture.app.id), 'user', 'feed', '--db', fixture.path);
    assert.equal(sent.code, 0, sent.stderr);
    const id = /Queued test delivery (\d+)/.exec(sent.stdout)![1]!;
    await eventually(() => receiver.notifications().length === 1, 'the test notification');
    assert.equal(receiver.notifications()[0]!.headers['x-loom-delivery'], id);
    assert.deepEqual(JSON.parse(receiver.notifications()[0]!.body).entry[0].changed_fields, ['feed']);

    await eventually(() => JSON.parse(loom('webhooks', 'deliveries', '--json', '--db', fixture.path).stdout)[0].status === 'delivered', 'the delivery recorded');
    const [delivery] = JSON.parse(loom('webhooks', 'deliveries', '--json', '--db', fixture.path).stdout);
    assert.equal(delivery.id, id);
    assert.equal(delivery.attempts[0].status, 200);
    assert.equal(delivery.headers['x-hub-signature'], receiver.notifications()[0]!.headers['x-hub-signature']);
    assert.match(loom('webhooks', 'deliveries', '--db', fixture.path).stdout, new RegExp(`${id}  delivered`));

    const again = loom('webhooks', 'redeliver', id, '--db', fixture.path);
    assert.equal(again.code, 0, again.stderr);
    await eventually(() => receiver.notifications().length === 2, 'the redelivery');
    assert.equal(receiver.notifications()[1]!.body, receiver.notifications()[0]!.body);
    // Seconds apart, so the receiver may have dropped the first one's connection: not reused.
    assert.notEqual(receiver.notifications()[1]!.connection, receiver.notifications()[0]!.connection);

    assert.equal(loom('webhooks', 'redeliver', '999999', '--db', fixture.path).code, 2);
    assert.equal(loom('webhooks', 'send-test', String(fixture.app.id), 'user', 'shoe_size', '--db', fixture.path).code, 2);
    assert.equal(loom('webhooks', 'deliveries', '--status', 'lost', '--db', fixture.path).code, 2);
  });
});
