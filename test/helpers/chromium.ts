import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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

  constructor(context: BrowserContext) {
    for (const page of context.pages()) this.watch(page);
    context.on('page', (page) => this.watch(page));
  }

  /** The next failed load whose address contains `addressPart` is on purpose. */
  expectFailedLoad(addressPart: string): void {
    this.expected.push(addressPart);
  }

  assertNone(): void {
    const found = this.problems.splice(0);
    assert.deepEqual(found, [], `problems on the page:\n${found.join('\n')}`);
    assert.deepEqual(this.expected.splice(0), [], 'an expected failure did not happen');
  }

  private watch(page: Page): void {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const address = message.location().url;
      const announced = this.expected.findIndex((part) => address.includes(part));
      if (announced !== -1 && message.text().startsWith('Failed to load resource')) this.expected.splice(announced, 1);
      else this.problems.push(`console error on ${page.url()}: ${message.text()} (${address})`);
    });
    page.on('pageerror', (error) => this.problems.push(`uncaught error on ${page.url()}: ${error.message}`));
    page.on('requestfailed', (request) => this.problems.push(`request failed: ${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
  }
}
