/**
 * The Explorer in real Chromium, for what a newcomer trips over: a write in history that must
 * not be sent again on a click, the hint for a query without a token, the response headers,
 * dark mode, paging back to the top, the folded permission list and the word on earlier grants.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, seedGraph } from '../../src/seed/demo-graph.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { launchChromium, PageProblems, type Chromium } from '../helpers/chromium.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Fills the query form and runs it; waits for the answer and returns the status shown. */
async function run(page: Page, method: string, path: string, params: Array<[string, string]> = []): Promise<string> {
  await page.selectOption('#method', method);
  await page.fill('#path', path);
  for (const row of await page.locator('.param-row .icon-button').all()) await row.click();
  for (const [name, value] of params) {
    await page.click('#add-param');
    await page.locator('.param-row .param-name').last().fill(name);
    await page.locator('.param-row .param-value').last().fill(value);
  }
  const ran = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith('/v2.4/'));
  await page.click('#run');
  await ran;
  await page.locator('#status.ok, #status.failed').waitFor();
  return (await page.locator('#status').textContent()) ?? '';
}

/** Relative luminance of a CSS rgb() colour, 0 (black) to 1 (white). */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((part) => Number(part) / 255);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

describe('the Explorer guides a newcomer (Chromium)', () => {
  let store: Store;
  let directory: string;
  let server: TestServer;
  let browser: Chromium;
  let problems: PageProblems;
  let page: Page;
  let email: string;

  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'loom-explorer-guidance-'));
    store = openSqliteStore(join(directory, 'graph.db'));
    const seeded = await seedGraph(store, { users: 30, seed: 'guidance', now: Math.floor(Date.now() / 86_400_000) * 86_400 });
    email = (await store.getCredentials(seeded.demoUserId))!.email;
    server = await startServer(store);
    browser = await launchChromium();
    problems = new PageProblems(browser.context);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}/explorer`);
    await page.locator('#permission-groups input[value="user_posts"]').waitFor({ state: 'attached' });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('hints at getting a token first when a query goes without one', async () => {
    problems.expectFailedLoad(`${server.url}/v2.4/me`);
    assert.equal(await run(page, 'GET', 'me'), '400 Bad Request');
    const card = page.locator('#error-card');
    assert.match((await card.textContent()) ?? '', /went without an access token: get a token first/);
    problems.assertNone();
  });

  it('folds the permission list after "Get token", shows the card in view, and tells earlier grants apart', async () => {
    await page.locator('#permissions summary').click();
    for (const box of await page.locator('#permission-groups input[type="checkbox"]:checked:not(:disabled)').all()) await box.uncheck();
    await page.locator('#permission-groups input[value="user_posts"]').check();
    const [popup] = await Promise.all([page.context().waitForEvent('page'), page.click('#get-token')]);
    await popup.fill('input[name="email"]', email);
    await popup.fill('input[name="password"]', DEMO_PASSWORD);
    await popup.click('button:has-text("Log in")');
    await Promise.all([popup.waitForEvent('close'), popup.click('button[name="decision"][value="allow"]')]);
    await page.locator('#token-user', { hasText: /\S/ }).waitFor();
    await page.locator('#token-granted-count', { hasText: /granted to this app earlier/ }).waitFor();

    assert.equal(await page.locator('#permissions').getAttribute('open'), null, 'the permission list is folded');
    const card = await page.locator('#token-card').boundingBox();
    assert.ok(card && card.y >= 0 && card.y + 40 <= 800, `the token card is in view at 1280×800: ${JSON.stringify(card)}`);
    // The seed granted the demo user every permission; two were asked now (public_profile always is).
    assert.match((await page.locator('#token-granted-count').textContent()) ?? '', /^\d+ permissions granted \(2 asked now, \d+ granted to this app earlier\)$/);
    problems.assertNone();
  });

  it('fills the form from a POST in history and sends nothing until Submit', async () => {
    assert.equal(await run(page, 'POST', 'me/feed', [['message', 'Only once']]), '200 OK');
    assert.equal(await run(page, 'GET', 'me?fields=id'), '200 OK');
    const token = (await page.locator('#token-value').textContent())!;
    const count = async () => (await server.get('/v2.4/me/feed', { access_token: token, limit: '100', fields: 'message' })).body.data.filter((post: { message?: string }) => post.message === 'Only once').length;
    assert.equal(await count(), 1);

    const sent: string[] = [];
    const watch = (request: { method(): string; url(): string }) => {
      if (new URL(request.url()).pathname.startsWith('/v2.4/')) sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
    };
    page.on('request', watch);
    try {
      await page.locator('#history .history-item', { hasText: 'me/feed' }).first().click();
      assert.equal(await page.inputValue('#method'), 'POST');
      assert.equal(await page.inputValue('#path'), 'me/feed');
      assert.deepEqual(await page.locator('.param-row .param-value').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)), ['Only once']);
      assert.match((await page.locator('#query-note').textContent()) ?? '', /Loaded from history, not sent: press Submit/);
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'run', 'the Run button has the focus');
      await page.waitForLoadState('networkidle');
      assert.deepEqual(sent, [], 'nothing was sent');
      assert.equal(await count(), 1, 'no second post');

      await page.click('#run');
      await page.locator('#status.ok').waitFor();
      assert.deepEqual(sent, ['POST /v2.4/me/feed'], 'Submit sends it, once');
      assert.equal(await page.locator('#query-note').isHidden(), true);
    } finally {
      page.off('request', watch);
    }
    assert.equal(await count(), 2);
    problems.assertNone();
  });

  it('shows the response headers', async () => {
    await run(page, 'GET', 'me?fields=id,name');
    await page.click('#view-headers');
    const headers = page.locator('#headers');
    await headers.waitFor();
    const names = await headers.locator('dt').allTextContents();
    const values = await headers.locator('dd').allTextContents();
    const shown = Object.fromEntries(names.map((name, index) => [name, values[index]]));
    assert.equal(shown['facebook-api-version'], 'v2.4');
    assert.equal(shown['content-type'], 'application/json; charset=UTF-8');
    assert.equal(await page.locator('#tree').isHidden(), true);
    await page.click('#view-tree');
    problems.assertNone();
  });

  it('starts the next page at its top', async () => {
    await run(page, 'GET', 'me/friends?limit=8&fields=name,birthday,location,hometown,education,work');
    await page.evaluate(() => {
      const body = document.getElementById('result-body')!;
      body.scrollTop = body.scrollHeight;
      window.scrollTo(0, document.body.scrollHeight);
    });
    assert.ok((await page.evaluate(() => document.getElementById('result-body')!.scrollTop)) > 0, 'the long answer scrolled');
    await page.locator('#root-pager button', { hasText: 'Next page' }).click();
    await page.waitForFunction(() => document.getElementById('result-body')!.scrollTop === 0);
    const head = await page.locator('#result-panel').boundingBox();
    assert.ok(head && head.y >= 0, 'the result panel’s head is in view');
    problems.assertNone();
  });

  it('keeps the start of a short path in view after a long one, and says where kept parameters go', async () => {
    await page.fill('#path', `me?fields=${'id,name,'.repeat(40)}id`);
    await page.focus('#path');
    await page.keyboard.press('End');
    await page.locator('#history .history-item', { hasText: /^GETme\?fields=id,name/ }).first().click();
    await page.locator('#status.ok').waitFor();
    await page.fill('#path', 'me/feed');
    await page.locator('#method').focus();
    assert.equal(await page.evaluate(() => (document.getElementById('path') as HTMLInputElement).scrollLeft), 0);
    const version = await page.locator('.path-box .version').boundingBox();
    const input = await page.locator('#path').boundingBox();
    assert.ok(version && input && input.x >= version.x + version.width - 1, 'the path starts after /v2.4/');

    await page.selectOption('#method', 'POST');
    await page.click('#add-param');
    await page.locator('.param-row .param-name').last().fill('message');
    await page.selectOption('#method', 'GET');
    assert.equal(await page.locator('#param-rows').getAttribute('data-where'), 'Added to the query string (were in the body)');
    problems.assertNone();
  });

  it('says on the test-user tab how to get an app token', async () => {
    await page.click('#tab-testusers');
    assert.match((await page.locator('#app-token-note').textContent()) ?? '', /app_id\|app_secret.*npm start.*bin\/loom app reset-secret APP_ID/s);
  });

  it('follows the system setting for dark mode', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.ok(luminance(await background()) < 0.2, `dark background: ${await background()}`);
    const panel = await page.locator('.query-panel').evaluate((element) => getComputedStyle(element).color);
    assert.ok(luminance(panel) > 0.7, `light text: ${panel}`);
    await page.emulateMedia({ colorScheme: 'light' });
    assert.ok(luminance(await background()) > 0.8, `light background: ${await background()}`);
    problems.assertNone();
  });
});
