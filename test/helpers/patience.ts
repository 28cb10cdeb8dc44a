/**
 * How long a test waits for what should happen promptly (a server starting, a line logged, a
 * notification arriving) before it decides that it never will. Generous on purpose: the suite runs
 * several files side by side on a small machine, so only a hang ever waits this long.
 */
export const PATIENCE_MS = 60_000;

/** Resolves once `test` holds, checking every 20 ms; fails once PATIENCE_MS have passed. */
export async function eventually(test: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
