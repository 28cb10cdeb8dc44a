/**
 * The Explorer's frame in real Chromium: the server's clock in the top bar only while the control
 * API has it frozen or moved, a top bar whose pieces never cover each other at 400 px, the panels
 * of a narrow screen in the order of the wide one, and Requests rows that read as what was asked.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import type { AppRecord } from '../../src/store/auth-store.js';
import { launchChromium, PageProblems, type Chromium } from '../helpers/chromium.js';
import { startServer, type TestServer } from '../helpers/server.js';

const ARTIFACTS = 'test-artifacts';
const NARROW = { width: 400, height: 860 };
const WIDE = { width: 1280, height: 800 };

/** Pairs of visible top-bar elements, neither inside the other, whose boxes overlap; and what sticks out or is cut. */
async function topBarClashes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>('.topbar')!;
    const name = (element: Element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].join('.')}`;
    const shown = [...bar.querySelectorAll<HTMLElement>('*')]
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      // A 1-pixel box is text kept for screen readers only (.visually-hidden).
      .filter(({ element, box }) => box.width > 1 && box.height > 1 && getComputedStyle(element).visibility === 'visible');
    const clashes: string[] = [];
    const edge = bar.getBoundingClientRect();
    for (const [index, { element, box }] of shown.entries()) {
      if (box.left < edge.left || box.right > edge.right || box.top < edge.top || box.bottom > edge.bottom) clashes.push(`${name(element)} sticks out of the bar`);
      if (element.scrollWidth > element.clientWidth + 1) clashes.push(`${name(element)} is cut: "${element.textContent}"`);
      for (const other of shown.slice(index + 1)) {
        if (element.contains(other.element) || other.element.contains(element)) continue;
        const overlap =
          Math.min(box.right, other.box.right) - Math.max(box.left, other.box.left) > 0.5 &&
          Math.min(box.bottom, other.box.bottom) - Math.max(box.top, other.box.top) > 0.5;
        if (overlap) clashes.push(`${name(element)} overlaps ${name(other.element)}`);
      }
    }
    return clashes;
  });
}

/** The panels of `.layout` from top to bottom (left column first where two share a height). */
async function panelOrder(page: Page, within = '.layout'): Promise<string[]> {
  return page.evaluate((scope) => {
    const panels = [...document.querySelectorAll<HTMLElement>(`${scope} .panel`)].map((panel) => ({
      name: [...panel.classList].find((name) => name.endsWith('-panel'))!,
      box: panel.getBoundingClientRect(),
    }));
    return panels.sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left).map(({ name }) => name);
  }, within);
}

describe('the Explorer\'s top bar, panel order and Requests (Chromium)', () => {
  let directory: string;
  let store: Store;
  let app: AppRecord;
  let server: TestServer;
  let browser: Chromium;
  let problems: PageProblems;
  let page: Page;

  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/_loom${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    assert.equal(response.status, 200, `${method} /_loom${path}: ${await response.text()}`);
  };
  /** Opens the Explorer and waits for its first reading of the control API (the journal is never empty here). */
  const open = async () => {
    await page.goto(`${server.url}/explorer`);
    await page.locator('#requests .request').first().waitFor();
  };

  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'loom-explorer-layout-'));
    store = openSqliteStore(join(directory, 'graph.db'));
    app = await store.createApp({ name: 'Layout App', secret: 'layout-app-secret-0123456789abcdef', idKey: '0123456789abcdef0123456789abcdef', createdTime: 1_700_000_000 });
    server = await startServer(store);
    // A request in the journal before the page opens, so the first reading shows a row.
    assert.equal((await server.get('/v2.4/me', { fields: 'id,name' })).status, 400);
    browser = await launchChromium();
    problems = new PageProblems(browser.context);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('shows the server clock only while the control API has it moved or frozen', async () => {
    // Each reading is a fresh page's first, rather than a wait for the next poll.
    const clock = page.locator('#server-clock');
    await open();
    assert.ok(await clock.isHidden(), 'a clock on real time is not shown');

    await control('POST', '/clock', { advance: '2h' });
    await open();
    assert.ok(await clock.isVisible());
    assert.match((await clock.textContent()) ?? '', /^Server time \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000 \(2 h 0 min ahead\)$/);

    await control('POST', '/clock', { now: '2030-01-01T00:00:00+0000' });
    await open();
    assert.ok(await clock.isVisible());
    assert.equal(await clock.textContent(), 'Server time 2030-01-01T00:00:00+0000 (frozen)');

    await control('DELETE', '/clock');
    await open();
    assert.ok(await clock.isHidden(), 'back on real time, the clock is not shown');
    problems.assertNone();
  });

  it('lays out the top bar with no piece over another, at 400 px and wide, clock and faults showing', async () => {
    await control('POST', '/clock', { now: '2030-01-01T00:00:00+0000' });
    await control('POST', '/faults', { match: { path: '/nowhere' }, preset: 'server_error' });
    try {
      for (const size of [NARROW, WIDE]) {
        await page.setViewportSize(size);
        await open();
        assert.equal(await page.locator('#server-faults').textContent(), '1 fault active');
        assert.deepEqual(await topBarClashes(page), [], `the top bar at ${size.width} px`);
        mkdirSync(ARTIFACTS, { recursive: true });
        await page.locator('.topbar').screenshot({ path: join(ARTIFACTS, `explorer-top-bar-${size.width}.png`) });
      }
    } finally {
      await control('DELETE', '/faults');
      await control('DELETE', '/clock');
    }
    problems.assertNone();
  });

  it('keeps at 400 px the panels in the order of the wide layout: the token, the query and its result, then the rest', async () => {
    await page.setViewportSize(WIDE);
    await open();
    const sidebar = await panelOrder(page, '.sidebar');
    const workspace = await panelOrder(page, '.workspace');
    assert.deepEqual(sidebar, ['token-panel', 'history-panel', 'requests-panel', 'webhooks-panel']);
    assert.deepEqual(workspace, ['query-panel', 'result-panel']);

    await page.setViewportSize(NARROW);
    assert.deepEqual(await panelOrder(page), [sidebar[0], ...workspace, ...sidebar.slice(1)]);
    problems.assertNone();
  });

  it('keeps "Copy as curl" on the row of the Tree, Raw and Headers switch at 400 px', async () => {
    await page.setViewportSize(NARROW);
    await page.fill('#path', `${app.id}?fields=name&access_token=${app.id}|${app.secret}`);
    await page.click('#run');
    await page.locator('#status.ok').waitFor();
    await page.locator('#trace:not(:empty)').waitFor();
    const views = (await page.locator('.segmented').boundingBox())!;
    const curl = (await page.locator('#copy-curl').boundingBox())!;
    assert.ok(curl.y < views.y + views.height && views.y < curl.y + curl.height, `one row: ${JSON.stringify({ views, curl })}`);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'explorer-400.png'), fullPage: true });
    problems.assertNone();
  });

  it('reads each Requests row as its path and query string, then error code, duration and time, with credentials redacted', async () => {
    await open();
    const rows = page.locator('#requests .request');
    const failed = rows.filter({ has: page.locator('.request-path', { hasText: /^\/me/ }) }).last();
    assert.equal(await failed.locator('.request-path').textContent(), '/me?fields=id,name');
    assert.match((await failed.locator('.request-meta').textContent()) ?? '', /^code 2500 · \d+ ms · \d\d:\d\d:\d\d$/);

    const asked = rows.filter({ has: page.locator('.request-path', { hasText: `/${app.id}?` }) }).first();
    assert.equal(await asked.locator('.request-path').textContent(), `/${app.id}?fields=name&access_token=[redacted]`);
    assert.match((await asked.locator('.request-meta').textContent()) ?? '', /^\d+ ms · \d\d:\d\d:\d\d$/);
    assert.ok(!(await page.locator('#requests').textContent())!.includes(app.secret), 'no secret in the panel');
    problems.assertNone();
  });
});
