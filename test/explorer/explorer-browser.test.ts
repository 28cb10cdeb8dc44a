/**
 * The Explorer end to end in real Chromium against a real Loom on the seeded demo graph: sign in
 * through the OAuth dialog, query, page, follow ids, write and delete, and renew an expired token.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, seedGraph } from '../../src/seed/demo-graph.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { launchChromium, PageProblems, type Chromium } from '../helpers/chromium.js';
import { startServer, type TestServer } from '../helpers/server.js';

const ARTIFACTS = 'test-artifacts';
/** Lifetime of the dialog's tokens on the second server, which the expiry test waits out. */
const SHORT_LIFETIME = 4;

interface Answer {
  status: string;
  body: any;
}

/** Waits for the query just started to finish; returns the status shown and the JSON shown. */
async function answerOf(page: Page): Promise<Answer> {
  await page.locator('#status.ok, #status.failed').waitFor();
  const raw = await page.locator('#raw').textContent();
  return { status: (await page.locator('#status').textContent()) ?? '', body: JSON.parse(raw ?? 'null') };
}

async function run(page: Page, method: string, path: string, params: Array<[string, string]> = []): Promise<Answer> {
  await page.selectOption('#method', method);
  await page.fill('#path', path);
  for (const row of await page.locator('.param-row .icon-button').all()) await row.click();
  for (const [name, value] of params) {
    await page.click('#add-param');
    await page.locator('.param-row .param-name').last().fill(name);
    await page.locator('.param-row .param-value').last().fill(value);
  }
  await page.keyboard.press('Control+Enter');
  return answerOf(page);
}

/** Signs in through the dialog the page opens in a popup, approving every permission asked. */
async function signInThroughDialog(page: Page, email: string, scopes: string[]): Promise<void> {
  const [popup] = await Promise.all([page.context().waitForEvent('page'), page.click('#get-token')]);
  await popup.waitForLoadState();
  await popup.fill('input[name="email"]', email);
  await popup.fill('input[name="password"]', DEMO_PASSWORD);
  await popup.click('button:has-text("Log in")');
  for (const scope of scopes) assert.ok(await popup.locator(`input[name="scope"][value="${scope}"]`).isChecked(), `${scope} is asked for`);
  await Promise.all([popup.waitForEvent('close'), popup.click('button[name="decision"][value="allow"]')]);
}

/**
 * Answers the dialog the page opens in a popup once the browser is signed in (the first sign-in
 * set its session): the consent page comes straight away, with no password to type.
 */
async function approveSignedIn(page: Page, open: () => Promise<void>): Promise<void> {
  const [popup] = await Promise.all([page.context().waitForEvent('page'), open()]);
  await popup.locator('button[name="decision"][value="allow"]').waitFor();
  assert.equal(await popup.locator('input[name="password"]').count(), 0, 'signed in already: no password asked');
  await Promise.all([popup.waitForEvent('close'), popup.click('button[name="decision"][value="allow"]')]);
}

/** Nothing sticks out sideways, and the run button is on screen without scrolling. */
async function assertUsableAt(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.evaluate(() => window.scrollTo(0, 0));
  const overflow = await page.evaluate(() => {
    const root = document.documentElement;
    const wide = [...document.querySelectorAll<HTMLElement>('.panel, .topbar')].filter((element) => element.scrollWidth > element.clientWidth + 1);
    return { page: root.scrollWidth - root.clientWidth, panels: wide.map((element) => element.className) };
  });
  assert.deepEqual(overflow, { page: 0, panels: [] }, `no horizontal overflow at ${width}×${height}`);
  const box = await page.locator('#run').boundingBox();
  assert.ok(box && box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height, `the run button is on screen at ${width}×${height}: ${JSON.stringify(box)}`);
  const path = await page.locator('#path').boundingBox();
  assert.ok(path && path.width >= 200, `the path box is wide enough to type in at ${width}×${height}`);
}

describe('the Explorer in Chromium', () => {
  let store: Store;
  let directory: string;
  let server: TestServer;
  let shortServer: TestServer;
  let browser: Chromium;
  let problems: PageProblems;
  let page: Page;
  let email: string;

  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'loom-explorer-'));
    store = openSqliteStore(join(directory, 'graph.db'));
    const seeded = await seedGraph(store, { users: 60, seed: 'loom', now: Math.floor(Date.now() / 86_400_000) * 86_400 });
    email = (await store.getCredentials(seeded.demoUserId))!.email;
    server = await startServer(store);
    shortServer = await startServer(store, { tokenLifetime: SHORT_LIFETIME });
    browser = await launchChromium();
    problems = new PageProblems(browser.context);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await shortServer?.close();
    await store?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('opens at /explorer, usable at 1280×800 and at 390×844', async () => {
    await page.goto(`${server.url}/explorer`);
    await page.locator('#permission-groups input[value="user_posts"]').waitFor({ state: 'attached' });
    assert.equal(await page.locator('#app-select option:checked').textContent(), 'Loom Demo (1)');
    await assertUsableAt(page, 390, 844);
    await assertUsableAt(page, 1280, 800);
    problems.assertNone();
  });

  it('gets a token for the demo user with user_posts and publish_actions through the dialog', async () => {
    await page.click('#permissions > summary');
    for (const scope of ['user_posts', 'publish_actions']) await page.check(`#permission-groups input[value="${scope}"]`);
    assert.equal(await page.locator('#permission-count').textContent(), '4 chosen');
    await page.click('#permissions > summary');
    await signInThroughDialog(page, email, ['user_posts', 'publish_actions']);

    await page.locator('#token-scopes .scope', { hasText: 'publish_actions' }).waitFor({ state: 'attached' });
    const scopes = await page.locator('#token-scopes .scope').allTextContents();
    assert.equal(
      await page.locator('#token-granted-count').textContent(),
      `${scopes.length} permissions granted (4 asked now, ${scopes.length - 4} granted to this app earlier)`,
    );
    for (const scope of ['public_profile', 'user_friends', 'user_posts', 'publish_actions']) assert.ok(scopes.includes(scope), `${scope} in ${scopes.join(', ')}`);
    await page.locator('#token-user', { hasText: 'Ilse Marwood' }).waitFor();
    assert.match((await page.locator('#token-expiry').textContent()) ?? '', /^in 1 h 59 min|^in 2 h 0 min/);
    assert.match((await page.locator('#token-value').textContent()) ?? '', /^EAA/);
    await assertUsableAt(page, 390, 844);
    await assertUsableAt(page, 1280, 800);
    problems.assertNone();
  });

  it('suggests fields and edges from metadata=1, at the top level, inside braces and after .fields(', async () => {
    // Suggestions arrive after metadata loads; wait for the expected one rather than reading whatever list shows first.
    const suggests = async (text: string, name: string) => {
      await page.fill('#path', text);
      await page.locator('#completions .completion-name', { hasText: new RegExp(`^${name.replace(/[()]/g, '\\$&')}$`) }).first().waitFor({ timeout: 5000 });
    };
    await suggests('me?fields=id,fri', 'friends');
    await suggests('me?fields=friends{na', 'name');
    await suggests('me?fields=feed.fields(mess', 'message'); // the fields of a post, learnt from a post
    await suggests('me?fields=friends.li', 'limit(');
    await suggests('me/fe', 'feed');
    assert.equal(await page.locator('#completions [aria-selected="true"]').count(), 0, 'nothing is chosen before an arrow key');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('#completions [aria-selected="true"] .completion-name').textContent(), 'feed');
    await page.keyboard.press('Tab');
    assert.equal(await page.inputValue('#path'), 'me/feed');
    problems.assertNone();
  });

  it('runs the query on a plain Enter while suggestions show, moves on with a plain Tab, and takes a suggestion only once one is highlighted', async () => {
    const showSuggestions = async () => {
      await page.fill('#path', 'me?fields=id,name');
      await page.locator('#completions .completion-name', { hasText: /^name_format$/ }).waitFor({ timeout: 5000 });
      assert.equal(await page.locator('#completions [aria-selected="true"]').count(), 0);
    };
    await page.selectOption('#method', 'GET');
    await showSuggestions();
    await page.keyboard.press('Enter');
    const { status, body } = await answerOf(page);
    assert.equal(status, '200 OK');
    assert.deepEqual(Object.keys(body).sort(), ['id', 'name']);
    assert.equal(await page.inputValue('#path'), 'me?fields=id,name');

    await showSuggestions();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'run', 'Tab goes on to the next control');
    assert.equal(await page.inputValue('#path'), 'me?fields=id,name');
    assert.ok(await page.locator('#completions').isHidden());

    await page.focus('#path');
    await showSuggestions();
    await page.keyboard.press('ArrowUp');
    const chosen = await page.locator('#completions [aria-selected="true"] .completion-name').textContent();
    const names = await page.locator('#completions .completion-name').allTextContents();
    assert.equal(chosen, names[names.length - 1], 'up from nothing starts at the last suggestion');
    await page.keyboard.press('Enter');
    assert.equal(await page.inputValue('#path'), `me?fields=id,${chosen}`);
    problems.assertNone();
  });

  it('moves among the token tabs with the arrow keys, Home and End, the tab list being one Tab stop', async () => {
    const state = () =>
      page.evaluate(() => ({
        focused: document.activeElement?.id,
        selected: [...document.querySelectorAll('[role="tab"][aria-selected="true"]')].map((tab) => tab.id),
        reachable: [...document.querySelectorAll<HTMLElement>('[role="tab"]')].filter((tab) => tab.tabIndex === 0).map((tab) => tab.id),
        shown: [...document.querySelectorAll<HTMLElement>('[role="tabpanel"]')].filter((pane) => !pane.hidden).map((pane) => pane.id),
      }));
    const expect = (name: string) => ({ focused: `tab-${name}`, selected: [`tab-${name}`], reachable: [`tab-${name}`], shown: [`pane-${name}`] });
    await page.focus('#tab-signin');
    assert.deepEqual(await state(), expect('signin'));
    for (const [key, name] of [['ArrowRight', 'testusers'], ['ArrowRight', 'paste'], ['ArrowRight', 'signin'], ['ArrowLeft', 'paste'], ['Home', 'signin'], ['End', 'paste']]) {
      await page.keyboard.press(key!);
      assert.deepEqual(await state(), expect(name!), `after ${key}`);
    }
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'paste-token', 'Tab leaves the tab list for the pane');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'tab-paste', 'and comes back to the chosen tab');
    await page.click('#tab-signin');
    assert.deepEqual(await state(), expect('signin'));
    problems.assertNone();
  });

  it('runs me?fields=id,name,friends.limit(2){name} and shows the tree', async () => {
    const { status, body } = await run(page, 'GET', 'me?fields=id,name,friends.limit(2){name}');
    assert.equal(status, '200 OK');
    assert.equal(body.name, 'Ilse Marwood');
    assert.equal(body.friends.data.length, 2);
    const tree = page.locator('#tree');
    assert.equal(await tree.locator('.leaf', { hasText: 'Ilse Marwood' }).count(), 1);
    assert.equal(await tree.locator('[data-key-path="friends.data"] > .children > .branch').count(), 2);
    assert.match((await page.locator('#trace').textContent()) ?? '', /^trace \S{11}$/);
    assert.match((await page.locator('#elapsed').textContent()) ?? '', /^\d+ ms$/);

    // A branch folds away and opens again.
    await tree.locator('[data-key-path="friends.data"] > summary').click();
    assert.equal(await tree.locator('[data-key-path="friends.data"]').getAttribute('open'), null);
    await tree.locator('[data-key-path="friends.data"] > summary').click();

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator('#result-panel').screenshot({ path: join(ARTIFACTS, 'explorer-result.png') });
    problems.assertNone();
  });

  it('shows the raw answer and copies the query as a curl command that works', async () => {
    await page.click('#view-raw');
    assert.ok(await page.locator('#raw').isVisible());
    const raw = JSON.parse((await page.locator('#raw').textContent()) ?? '');
    await page.click('#view-tree');
    await page.click('#copy-curl');
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    const url = /^curl -g '([^']+)'$/.exec(curl)?.[1];
    assert.ok(url, curl);
    const again = await server.fetch(url);
    assert.equal(again.body.id, raw.id);
    assert.deepEqual(again.body.friends.data, raw.friends.data);
    problems.assertNone();
  });

  it('pages through the friends with "Next page" and back with "Previous page"', async () => {
    const first = JSON.parse((await page.locator('#raw').textContent()) ?? '');
    await page.locator('[data-key-path="friends"] .page-button.next').click();
    const next = await answerOf(page);
    assert.equal(next.status, '200 OK');
    assert.match(await page.inputValue('#path'), new RegExp(`^${first.id}/friends\\?fields=name&limit=2&after=`));
    assert.doesNotMatch(await page.inputValue('#path'), /access_token/);
    assert.equal(next.body.data.length, 2);
    const firstIds = first.friends.data.map((friend: { id: string }) => friend.id);
    assert.ok(next.body.data.every((friend: { id: string }) => !firstIds.includes(friend.id)), 'the next page holds other friends');

    await page.locator('#root-pager .page-button.previous').click();
    const back = await answerOf(page);
    assert.deepEqual(back.body.data, first.friends.data);
    problems.assertNone();
  });

  it('opens a node by clicking its id', async () => {
    const friend = page.locator('#tree a.id-link').first();
    const id = await friend.getAttribute('data-id');
    await friend.click();
    const { status, body } = await answerOf(page);
    assert.equal(status, '200 OK');
    assert.equal(await page.inputValue('#path'), id);
    assert.equal(body.id, id);
    assert.equal(typeof body.name, 'string');
    problems.assertNone();
  });

  it('posts to me/feed, shows the new id, opens it and deletes it', async () => {
    const message = `Hello from the Explorer ${Date.now()}`;
    const posted = await run(page, 'POST', 'me/feed', [['message', message]]);
    assert.equal(posted.status, '200 OK');
    assert.match(posted.body.id, /^\d+_\d+$/);
    const link = page.locator(`#tree a.id-link[data-id="${posted.body.id}"]`);
    assert.equal(await link.count(), 1, 'the new id is a link');

    await link.click();
    const opened = await answerOf(page);
    assert.equal(opened.body.message, message);

    const deleted = await run(page, 'DELETE', posted.body.id);
    assert.deepEqual(deleted.body, { success: true });
    const token = (await page.locator('#token-value').textContent())!;
    const gone = await server.get(`/v2.4/${posted.body.id}`, { access_token: token });
    assert.equal(gone.status, 400, 'the post is gone');
    problems.assertNone();
  });

  it('keeps the queries in history, without the token, and runs one again with a click', async () => {
    const items = page.locator('#history .history-item');
    const paths = await items.locator('.history-path').allTextContents();
    assert.ok(paths.includes('me?fields=id,name,friends.limit(2){name}'), paths.join('\n'));
    assert.ok(paths.includes('me/feed'));
    const stored = await page.evaluate(() => localStorage.getItem('loom.explorer.history') ?? '');
    assert.ok(!stored.includes((await page.locator('#token-value').textContent())!), 'history never holds the token');

    await items.filter({ hasText: 'friends.limit(2){name}' }).click();
    const again = await answerOf(page);
    assert.equal(await page.inputValue('#path'), 'me?fields=id,name,friends.limit(2){name}');
    assert.equal(again.body.friends.data.length, 2);
    problems.assertNone();
  });

  it("shows the server's clock, its active faults and every request, live, in the Requests panel", async () => {
    const control = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}/_loom${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    await control('POST', '/faults', { match: { path: '/nowhere' }, preset: 'server_error' });
    await control('POST', '/clock', { now: '2030-01-01T00:00:00+0000' });
    try {
      await page.locator('#server-faults', { hasText: '1 fault active' }).waitFor();
      await page.locator('#server-clock', { hasText: 'Server time 2030-01-01T00:00:00+0000 (frozen)' }).waitFor();
      await control('DELETE', '/clock');
      await run(page, 'GET', 'me?fields=id');
      const row = page.locator('#requests .request').first();
      await row.locator('.request-path', { hasText: '/me' }).waitFor();
      assert.equal(await row.locator('.request-status').textContent(), '200');
      assert.equal(await row.locator('.request-method').textContent(), 'GET');
      assert.doesNotMatch((await row.locator('.request-path').getAttribute('title')) ?? '', /access_token=(?!\[redacted\])/);
    } finally {
      await control('DELETE', '/faults');
      await control('DELETE', '/clock');
    }
    await page.locator('#server-faults').waitFor({ state: 'hidden' });
  });

  it('never follows a link in the graph to another site, nor lets a link carry a method: clicking one deletes nothing', async () => {
    const token = (await page.locator('#token-value').textContent())!;
    const target = (await server.form('/v2.4/me/feed', { message: 'Keep me', access_token: token })).body.id as string;
    const post = async (link: string) => (await server.form('/v2.4/me/feed', { message: 'Look', link, access_token: token })).body.id as string;
    const foreign = await post(`https://elsewhere.example/v2.4/${target}?method=delete&access_token=x`);
    const own = await post(`${server.url}/v2.4/${target}?method=delete&suppress_http_code=1`);
    const touched: string[] = [];
    const watch = (request: { method(): string; url(): string }) => {
      if (new URL(request.url()).pathname === `/v2.4/${target}`) touched.push(`${request.method()} ${request.url()}`);
    };
    await browser.context.route('https://elsewhere.example/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'elsewhere' }));
    page.on('request', watch);
    try {
      await run(page, 'GET', `${foreign}?fields=link`);
      const away = page.locator('#tree a.string', { hasText: 'elsewhere.example' });
      assert.equal(await away.getAttribute('data-path'), null, 'a link to another site is no Graph link');
      const [popup] = await Promise.all([page.context().waitForEvent('page'), away.click()]);
      assert.match(popup.url(), /^https:\/\/elsewhere\.example\//, 'it opens as the web page it is');
      await popup.close();
      assert.equal(await page.inputValue('#path'), `${foreign}?fields=link`, 'the Explorer ran nothing');
      assert.equal(touched.length, 0, touched.join('\n'));

      await run(page, 'GET', `${own}?fields=link`);
      await page.locator('#tree a.graph-link').click();
      const opened = await answerOf(page);
      assert.equal(opened.status, '200 OK');
      assert.equal(opened.body.id, target, 'a link to Loom itself opens as a read');
      assert.equal(await page.inputValue('#method'), 'GET');
      assert.equal(await page.inputValue('#path'), target);
      assert.deepEqual(touched.map((entry) => entry.split(' ')[0]), ['GET']);
      assert.doesNotMatch(touched[0]!, /method=|suppress_http_code/);
    } finally {
      page.off('request', watch);
      await browser.context.unroute('https://elsewhere.example/**');
    }
    assert.equal((await server.get(`/v2.4/${target}`, { access_token: token })).status, 200, 'the post is still there');
    for (const id of [target, foreign, own]) await server.form(`/v2.4/${id}`, { access_token: token }, 'DELETE');
    problems.assertNone();
  });

  it('opens an address whose path asks for another method as that method, and sends it only on an explicit Run', async () => {
    const token = (await page.locator('#token-value').textContent())!;
    const target = (await server.form('/v2.4/me/feed', { message: 'Linked', access_token: token })).body.id as string;
    const sent: string[] = [];
    const watch = (request: { method(): string; url(): string }) => {
      if (new URL(request.url()).pathname === `/v2.4/${target}`) sent.push(request.method());
    };
    page.on('request', watch);
    try {
      await page.goto(`${server.url}/explorer?${new URLSearchParams({ path: `${target}?method=delete&suppress_http_code=1` })}`);
      await page.locator('#token-user', { hasText: 'Ilse Marwood' }).waitFor();
      // A linked read would have been sent by now; give a wrongly sent write every chance to show.
      await page.waitForLoadState('networkidle');
      assert.equal(await page.inputValue('#method'), 'DELETE');
      assert.equal(await page.inputValue('#path'), target);
      assert.equal(sent.length, 0, sent.join('\n'));
      assert.equal(await page.locator('#status').textContent(), '');
      assert.equal((await server.get(`/v2.4/${target}`, { access_token: token })).status, 200, 'the post is still there');

      await page.click('#run');
      const deleted = await answerOf(page);
      assert.deepEqual(deleted.body, { success: true });
      assert.deepEqual(sent, ['DELETE']);
    } finally {
      page.off('request', watch);
    }
    const top = page.locator('#history .history-item').first();
    assert.equal(await top.locator('.method').textContent(), 'DELETE', 'history keeps the method that ran');
    assert.equal(await top.locator('.history-path').textContent(), target);
    problems.assertNone();
  });

  it('keeps a token it was asked about out of history and the address', async () => {
    const token = (await page.locator('#token-value').textContent())!;
    const { status, body } = await run(page, 'GET', `debug_token?input_token=${token}`);
    assert.equal(status, '200 OK');
    assert.equal(body.data.is_valid, true);
    const stored = await page.evaluate(() => localStorage.getItem('loom.explorer.history') ?? '');
    assert.ok(!stored.includes(token), 'history never holds the token asked about');
    assert.ok(!page.url().includes(token), 'nor does the address');
    assert.equal(await page.locator('#history .history-item .history-path').first().textContent(), 'debug_token');

    // What an earlier version kept, token and all, is cleaned when the page loads.
    await page.evaluate((secret) => {
      const entry = { method: 'GET', path: `debug_token?input_token=${secret}`, params: [['code', secret]], status: 200, at: Date.now() };
      localStorage.setItem('loom.explorer.history', JSON.stringify([entry]));
    }, token);
    await page.goto(`${server.url}/explorer`);
    await page.locator('#history .history-item').first().waitFor();
    const cleaned = await page.evaluate(() => JSON.parse(localStorage.getItem('loom.explorer.history') ?? 'null'));
    assert.deepEqual(cleaned.map(({ path, params }: { path: string; params: unknown }) => ({ path, params })), [{ path: 'debug_token', params: [] }]);
    problems.assertNone();
  });

  it('says so when the person cancels in the dialog, and keeps the token it had', async () => {
    const before = await page.locator('#token-value').textContent();
    const [popup] = await Promise.all([page.context().waitForEvent('page'), page.click('#get-token')]);
    await Promise.all([popup.waitForEvent('close'), popup.click('button[name="decision"][value="deny"]')]);
    await page.locator('#token-message.error', { hasText: 'Permissions error' }).waitFor();
    assert.equal(await page.locator('#token-value').textContent(), before);
    problems.assertNone();
  });

  it('signs in in the same tab where popups are blocked, and comes back with the token', async () => {
    const tab = await browser.context.newPage();
    await tab.addInitScript(() => {
      window.open = () => null;
    });
    await tab.goto(`${server.url}/explorer`);
    await tab.locator('#permission-groups input[value="user_posts"]').waitFor({ state: 'attached' });
    await Promise.all([tab.waitForURL(/\/dialog\/oauth/), tab.click('#get-token')]);
    await Promise.all([tab.waitForURL(`${server.url}/explorer`), tab.click('button[name="decision"][value="allow"]')]);
    await tab.locator('#token-user', { hasText: 'Ilse Marwood' }).waitFor();
    assert.doesNotMatch(tab.url(), /access_token/, 'the token does not stay in the address');
    const { status } = await run(tab, 'GET', 'me');
    assert.equal(status, '200 OK');
    await tab.close();
    problems.assertNone();
  });

  it('shows an expired token, says so on the query that fails, and renews it without leaving the page or a password', async () => {
    const short = await browser.context.newPage();
    await short.goto(`${shortServer.url}/explorer`);
    await short.locator('#permission-groups input[value="user_posts"]').waitFor({ state: 'attached' });
    await approveSignedIn(short, () => short.click('#get-token'));
    await short.locator('#token-user', { hasText: 'Ilse Marwood' }).waitFor();
    const expired = (await short.locator('#token-value').textContent())!;
    await short.locator('#token-expiry', { hasText: 'Expired' }).waitFor({ timeout: (SHORT_LIFETIME + 5) * 1000 });

    problems.expectFailedLoad(`${shortServer.url}/v2.4/me`);
    const refused = await run(short, 'GET', 'me');
    assert.equal(refused.status, '400 Bad Request');
    const card = short.locator('#error-card');
    assert.ok(await card.isVisible());
    assert.match((await card.locator('.error-type').textContent()) ?? '', /^OAuthException$/);
    assert.deepEqual(await card.locator('.error-code').allTextContents(), ['code 190', 'subcode 463']);
    assert.match((await card.locator('.error-message').textContent()) ?? '', /Session has expired/);

    await approveSignedIn(short, () => card.locator('button', { hasText: 'Renew token' }).click());
    await short.locator('#token-expiry', { hasText: /^in \d s$/ }).waitFor();
    assert.notEqual(await short.locator('#token-value').textContent(), expired);

    const renewed = await run(short, 'GET', 'me');
    assert.equal(renewed.status, '200 OK');
    assert.equal(renewed.body.name, 'Ilse Marwood');
    assert.ok(!(await short.locator('#error-card').isVisible()));
    await short.close();
    problems.assertNone();
  });
});
