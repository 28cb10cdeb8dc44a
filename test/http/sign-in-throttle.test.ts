import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashPassword } from '../../src/auth/passwords.js';
import { Browser, type Page } from '../helpers/browser.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Clock } from '../../src/clock/clock.js';

const PASSWORD = 'the right one';
const MINUTE = 60;

describe('sign-in throttling in the dialog', () => {
  let fixture: Fixture;
  let now: number;
  const clock = Clock.frozenAt(0);
  const servers: TestServer[] = [];

  before(async () => {
    fixture = await buildFixture();
    now = fixture.now; clock.freeze(now);
    await fixture.store.setCredentials({ userId: fixture.users.dave, email: 'dave@example.com', passwordHash: await hashPassword(PASSWORD) });
    await fixture.store.setCredentials({ userId: fixture.users.carol, email: 'carol@example.com', passwordHash: await hashPassword(PASSWORD) });
  });
  after(async () => {
    for (const server of servers) await server.close();
    await fixture.store.close();
  });

  /** A server of its own, so each test starts with no failures counted. */
  async function serve(signInLimits?: { perEmail?: number; perAddress?: number }): Promise<TestServer> {
    const server = await startServer(fixture.store, { clock, ...(signInLimits ? { signInLimits } : {}) });
    servers.push(server);
    return server;
  }

  /** Opens the dialog and answers its sign-in form; the browser keeps the page to try again from. */
  async function signInPage(server: TestServer): Promise<{ browser: Browser; page: Page }> {
    const browser = new Browser(server.url);
    const query = new URLSearchParams({ client_id: String(fixture.app.id), redirect_uri: 'https://app.example/callback' });
    const page = await browser.open(`${server.url}/v2.4/dialog/oauth?${query}`);
    assert.equal(page.status, 200);
    return { browser, page };
  }

  const isWrong = (page: Page) => page.status === 200 && /The email or password you entered is incorrect\./.test(page.html);
  const isConsent = (page: Page) => page.status === 200 && /name="decision" value="allow"/.test(page.html);

  function assertThrottled(page: Page, minutes: number) {
    assert.equal(page.status, 429, page.html);
    assert.equal(page.headers.get('retry-after'), String(minutes * MINUTE));
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    assert.match(page.html, /<h1>Too many attempts<\/h1>/);
    assert.match(page.html, new RegExp(`Try again in ${minutes} minutes?\\.`));
    assert.doesNotMatch(page.html, /name="decision"/);
    assert.doesNotMatch(page.html, /<form/);
  }

  it('refuses an email after 10 failed attempts in 15 minutes, even with the right password, until the window passes', async () => {
    const server = await serve();
    const { browser, page } = await signInPage(server);
    for (let i = 0; i < 10; i++) {
      assert.ok(isWrong(await browser.submit(page, { email: 'dave@example.com', password: `guess ${i}` })), `failure ${i + 1}`);
    }
    assertThrottled(await browser.submit(page, { email: 'Dave@Example.com', password: PASSWORD }), 15);
    assert.ok(isConsent(await browser.submit(page, { email: 'carol@example.com', password: PASSWORD })), 'another email signs in from the same address');

    // A dialog page lasts 10 minutes: each later try starts from a new one.
    now += 14 * MINUTE; clock.freeze(now);
    const nearly = await signInPage(server);
    assertThrottled(await nearly.browser.submit(nearly.page, { email: 'dave@example.com', password: PASSWORD }), 1);
    now += MINUTE; clock.freeze(now);
    const later = await signInPage(server);
    assert.ok(isConsent(await later.browser.submit(later.page, { email: 'dave@example.com', password: PASSWORD })), 'allowed again after 15 minutes');
  });

  it("resets the email's count on a successful sign-in", async () => {
    const server = await serve({ perEmail: 3 });
    const { browser, page } = await signInPage(server);
    const wrong = () => browser.submit(page, { email: 'dave@example.com', password: 'nope' });
    for (let i = 0; i < 2; i++) assert.ok(isWrong(await wrong()));
    assert.ok(isConsent(await browser.submit(page, { email: 'dave@example.com', password: PASSWORD })));
    for (let i = 0; i < 3; i++) assert.ok(isWrong(await wrong()), `failure ${i + 1} after the reset`);
    assertThrottled(await browser.submit(page, { email: 'dave@example.com', password: PASSWORD }), 15);
  });

  it('refuses a client address after its limit of failures, whatever the email', async () => {
    const server = await serve({ perAddress: 4 });
    const { browser, page } = await signInPage(server);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com', 'dave@example.com']) {
      assert.ok(isWrong(await browser.submit(page, { email, password: 'nope' })), email);
    }
    assertThrottled(await browser.submit(page, { email: 'carol@example.com', password: PASSWORD }), 15);
  });

  it('counts guesses sent all at once', async () => {
    const server = await serve({ perEmail: 3 });
    const { browser, page } = await signInPage(server);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => browser.submit(page, { email: 'dave@example.com', password: `guess ${i}` })));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 200, 200, 429, 429, 429]);
  });
});
