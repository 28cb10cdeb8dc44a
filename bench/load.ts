/**
 * The load generator, run as a process of its own (`node load.js <options as JSON>`): autocannon
 * driving one server for a while, then a JSON summary on stdout. A rotating load puts the next
 * value of a list into the path of every request, shared by all connections, so that no two
 * requests ask the same thing until the list runs out: what a cache of whole answers cannot help.
 * SIGTERM ends the load early, with the summary of what it did until then.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface LoadSpec {
  url: string;
  seconds: number;
  connections: number;
  method?: 'GET' | 'POST';
  /** A form body. */
  body?: string;
  rotate?: Rotation;
}

export interface Rotation {
  /** The path of each request, with `{}` where the value goes. */
  template: string;
  /** The values, one a line. */
  file: string;
  /** Index of the first value to use; the list starts over after its end. */
  from: number;
}

export interface LoadSummary {
  requestsPerSecond: number;
  /** Requests answered in all. */
  requests: number;
  /** Answers that were not 2xx, plus socket errors and timeouts. */
  failures: number;
  /** What the failures were, for the message that stops the run: statuses and errors with their counts. */
  failed: string;
  /** Values of the rotation put into requests (a few more than were answered). */
  rotated: number;
}

interface Request {
  path: string;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

type Autocannon = (
  options: Record<string, unknown>,
  done: (error: Error | null, result: AutocannonResult) => void,
) => { stop(): void; on(event: 'response', listener: (client: unknown, status: number) => void): void; on(event: 'reqError', listener: (error: Error) => void): void };

function load(spec: LoadSpec): Promise<LoadSummary> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const options: Record<string, unknown> = { url: spec.url, connections: spec.connections, duration: spec.seconds, method: spec.method ?? 'GET' };
  if (spec.body !== undefined) {
    options.headers = { 'content-type': 'application/x-www-form-urlencoded' };
    options.body = spec.body;
  }
  let rotated = 0;
  if (spec.rotate) {
    const { template, from } = spec.rotate;
    const values = readFileSync(spec.rotate.file, 'utf8').split('\n').filter((line) => line !== '');
    const [before, after] = template.split('{}') as [string, string];
    options.requests = [{ setupRequest: (request: Request) => ({ ...request, path: before + values[(from + rotated++) % values.length] + after }) }];
  }
  const failed = new Map<string, number>();
  const count = (kind: string) => failed.set(kind, (failed.get(kind) ?? 0) + 1);
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => {
      if (error) return reject(error);
      resolve({
        requestsPerSecond: result.requests.average,
        requests: result.requests.total,
        failures: result.non2xx + result.errors + result.timeouts,
        failed: [...failed].map(([kind, times]) => `${times} × ${kind}`).join(', '),
        rotated,
      });
    });
    instance.on('response', (_client, status) => {
      if (status < 200 || status > 299) count(`HTTP ${status}`);
    });
    instance.on('reqError', (error) => count(error.message));
    process.once('SIGTERM', () => instance.stop());
  });
}

const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
process.stdout.write(JSON.stringify(await load(spec)));
