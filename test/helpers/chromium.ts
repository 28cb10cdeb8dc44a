import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';

/**
 * The Chromium the browser tests drive: $CHROMIUM_PATH, by default Debian's `chromium` package,
 * which `scripts/ensure-chromium.sh` installs (CI runs that first). Read by
 * test/scripts/chromium-path.test.ts in a process of its own, hence public.
 * @public
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile that reaches nothing but the servers the test starts. */
export async function launchChromium(): Promise<Chromium> {
  if (!existsSync(CHROMIUM_PATH)) {
    assert.fail(
      `Chromium is not installed at ${CHROMIUM_PATH}; the browser tests need it. Run scripts/ensure-chromium.sh (apt-get install chromium), or set CHROMIUM_PATH to a Chromium.`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'loom-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Console errors, uncaught exceptions and failed requests of every page of a browser context.
 * A test announces the errors it provokes on purpose (a query with an expired token answers
 * 400, which the browser logs); anything else is a problem.
 */
export class PageProblems {
  private readonly problems: string[] = [];
  private readonly expected: string[] = [];
  private readonly aborted: Array<{ problem: string; documentLeft: () => boolean }> = [];

  constructor(context: BrowserContext) {
    for (const page of context.pages()) this.watch(page);
    context.on('page', (page) => this.watch(page));
  }

  /** The next failed load whose address contains `addressPart` is on purpose. */
  expectFailedLoad(addressPart: string): void {
    this.expected.push(addressPart);
  }

  assertNone(): void {
    const found = [...this.problems.splice(0), ...this.aborted.splice(0).filter((entry) => !entry.documentLeft()).map((entry) => entry.problem)];
    assert.deepEqual(found, [], `problems on the page:\n${found.join('\n')}`);
    assert.deepEqual(this.expected.splice(0), [], 'an expected failure did not happen');
  }

  private watch(page: Page): void {
    // Which document of the page sent a request: leaving a document aborts what it still had in
    // flight (a poll of the server panel, say), which is the browser's doing, not the page's.
    let documents = 0;
    const sentBy = new WeakMap<Request, number>();
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) documents += 1;
    });
    page.on('request', (request) => sentBy.set(request, documents));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const address = message.location().url;
      const announced = this.expected.findIndex((part) => address.includes(part));
      if (announced !== -1 && message.text().startsWith('Failed to load resource')) this.expected.splice(announced, 1);
      else this.problems.push(`console error on ${page.url()}: ${message.text()} (${address})`);
    });
    page.on('pageerror', (error) => this.problems.push(`uncaught error on ${page.url()}: ${error.message}`));
    page.on('requestfailed', (request) => {
      const errorText = request.failure()?.errorText;
      const problem = `request failed: ${request.method()} ${request.url()}: ${errorText}`;
      // Whether the page moved on is known for sure only later: the abort may be reported first.
      if (errorText === 'net::ERR_ABORTED') this.aborted.push({ problem, documentLeft: () => sentBy.get(request) !== documents });
      else this.problems.push(problem);
    });
  }
}
