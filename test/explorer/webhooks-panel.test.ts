/** The Explorer's Webhooks panel in real Chromium: a delivery with its body, signature and attempts. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { Clock } from '../../src/clock/clock.js';
import { launchChromium, PageProblems, type Chromium } from '../helpers/chromium.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { eventually } from '../helpers/patience.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('the Explorer\'s Webhooks panel', () => {
  let fixture: Fixture;
  let server: TestServer;
  let receiver: Receiver;
  let browser: Chromium;
  let problems: PageProblems;
  let page: Page;

  before(async () => {
    fixture = await buildFixture();
    receiver = await startReceiver();
    server = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), webhooks: { deliver: true, allowPrivate: true, windowMs: 50 } });
    browser = await launchChromium();
    problems = new PageProblems(browser.context);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.store.close();
    await receiver?.close();
  });

  it('lists deliveries with the body as sent, its signature and the callback\'s answers', async () => {
    await page.goto(`${server.url}/explorer`);
    await page.locator('#webhooks-empty:has-text("No notifications yet")').waitFor();

    await fixture.store.webhooks.saveSubscription({
      appId: fixture.app.id, object: 'user', callbackUrl: receiver.url, fields: ['feed'], verifyToken: '', active: true, createdTime: fixture.now,
    });
    const token = await fixture.tokenFor(fixture.users.alice, ['publish_actions']);
    assert.equal((await server.form('/v2.4/me/feed', { access_token: token, message: 'Seen in the Explorer' })).status, 200);
    await eventually(() => receiver.notifications().length === 1, 'the notification');
    const sent = receiver.notifications()[0]!;
    await eventually(async () => JSON.parse((await server.get('/_loom/webhooks/deliveries')).text).data[0]?.status === 'delivered', 'the delivery recorded');

    await page.click('#refresh-webhooks');
    const item = page.locator('#webhook-deliveries details').first();
    await item.locator('summary:has-text("delivered · user · 1 entries · 1 attempts")').waitFor();
    await item.locator('summary').click();
    assert.equal(await item.locator('.delivery-body').textContent(), sent.body);
    assert.match((await item.locator('.delivery-headers').textContent())!, new RegExp(`x-hub-signature-256: ${String(sent.headers['x-hub-signature-256'])}`));
    assert.match((await item.locator('.attempts').textContent())!, /200 ok/);
    problems.assertNone();
  });
});
