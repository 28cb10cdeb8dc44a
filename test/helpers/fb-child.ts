/**
 * Runs npm `fb` calls in a child process, because `fb` can only talk to https://graph.facebook.com
 * and Node reads NODE_EXTRA_CA_CERTS (the trust in Loom's authority) only when a process starts.
 * The child gets the calls as JSON on standard input and prints their outcomes as JSON.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** One `FB.api(path, method, params)` call; `{ $png: base64 }` in params becomes an uploaded file. */
export interface FbCall {
  path: string;
  method?: 'get' | 'post' | 'delete';
  params?: Record<string, unknown>;
  /** Call `FB.napi` (node-style callback) instead of the promise form of `FB.api`. */
  napi?: boolean;
  /** Options set with `FB.options(...)` before this call (for example `{ beta: true }`). */
  options?: Record<string, unknown>;
  /** Make the call on `FB.withAccessToken(token)`, a new instance that inherits the others' options. */
  withAccessToken?: string;
}

export type FbOutcome = { result: any } | { error: { name: string; message: string; response: any } };

export interface FbProxy {
  /** The intercepting Loom, as HTTPS_PROXY names it. */
  proxyUrl: string;
  /** Path of Loom's authority certificate, as NODE_EXTRA_CA_CERTS names it. */
  certificatePath: string;
}

/** Runs `calls` one after the other through a fresh `Facebook` instance in a child process. */
export function runFb(proxy: FbProxy, options: Record<string, unknown>, calls: FbCall[]): Promise<FbOutcome[]> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    // Exactly how a user points an unmodified `fb` at Loom: the proxy and the extra authority.
    env: { ...process.env, HTTPS_PROXY: proxy.proxyUrl, NODE_EXTRA_CA_CERTS: proxy.certificatePath, NO_PROXY: '' },
  });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(JSON.stringify({ options, calls }));
  return new Promise((resolve, reject) =>
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`fb child failed (${code}): ${stderr}`));
      resolve(JSON.parse(stdout) as FbOutcome[]);
    }),
  );
}

async function childMain(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const { options, calls } = JSON.parse(input) as { options: Record<string, unknown>; calls: FbCall[] };
  const { Facebook } = (await import('fb')).default;
  const FB = new Facebook(options);
  const outcomes: FbOutcome[] = [];
  for (const call of calls) {
    if (call.options) FB.options(call.options);
    const params = Object.fromEntries(
      Object.entries(call.params ?? {}).map(([name, value]) => {
        const png = (value as { $png?: string } | null)?.$png;
        return [name, png === undefined ? value : { value: Buffer.from(png, 'base64'), options: { filename: 'picture.png', contentType: 'image/png' } }];
      }),
    );
    const args = [call.path, call.method ?? 'get', params];
    const client = call.withAccessToken === undefined ? FB : FB.withAccessToken(call.withAccessToken);
    try {
      const result = call.napi
        ? await new Promise((resolve, reject) => client.napi(...args, (error: Error | null, response: unknown) => (error ? reject(error) : resolve(response))))
        : await client.api(...args);
      outcomes.push({ result });
    } catch (error) {
      const failure = error as Error & { response?: unknown };
      outcomes.push({ error: { name: failure.name, message: failure.message, response: failure.response ?? null } });
    }
  }
  process.stdout.write(JSON.stringify(outcomes));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await childMain();
