import { randomInt } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { describeSystemError, GraphError } from '../errors.js';
import { isPrivateAddress } from '../media/fetch-image.js';

/** Where a callback may point, and what the server itself listens on. */
export interface CallbackRules {
  allowPrivate: boolean;
  /** The port this server answers on, once it listens. */
  ownPort(): number | undefined;
  timeoutMs: number;
}

/**
 * Headers of every request to a callback. Each request has a connection of its own, closed once
 * answered: a receiver drops idle connections on its own schedule (Node after 5 s, some servers
 * sooner, without saying so), and a POST sent on one it has just dropped fails with a reset that
 * the HTTP client does not retry, leaving a good delivery to wait for its retry by graph time,
 * which never comes while the clock is frozen.
 */
export const CALLBACK_HEADERS = { 'user-agent': 'Loom webhooks', connection: 'close' } as const;

const malformed = () => GraphError.invalidParameter('callback_url URL is not properly formatted');

/**
 * Checks a callback URL: http(s), and on loopback or private networks only when allowed, never
 * this server's own port (a subscription must not make Loom call itself in a loop).
 */
export async function checkCallbackUrl(text: string | undefined, rules: CallbackRules): Promise<URL> {
  if (!text || text.length > 2000) throw malformed();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw malformed();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || url.username || url.password) throw malformed();
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    throw GraphError.invalidParameter(`callback_url names a host that does not resolve: ${host.slice(0, 100)}`);
  }
  const local = addresses.some(isPrivateAddress);
  if (local && !rules.allowPrivate) {
    throw GraphError.invalidParameter('callback_url points into a private network; start Loom with --allow-private-webhooks to allow it');
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (local && port === rules.ownPort()) throw GraphError.invalidParameter('callback_url must not point at this server itself');
  return url;
}

/**
 * The verification handshake: `GET <callback>?hub.mode=subscribe&hub.challenge=<n>&hub.verify_token=<t>`
 * must answer 200 with exactly the challenge, or the subscription is not saved.
 */
export async function verifyCallback(url: URL, verifyToken: string, timeoutMs: number): Promise<void> {
  const challenge = String(randomInt(1, 2 ** 31 - 1));
  const target = new URL(url);
  target.searchParams.set('hub.mode', 'subscribe');
  target.searchParams.set('hub.challenge', challenge);
  target.searchParams.set('hub.verify_token', verifyToken);
  let reason: string;
  try {
    const response = await fetch(target, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs), headers: CALLBACK_HEADERS });
    const text = (await response.text()).slice(0, 200);
    if (response.status === 200 && text === challenge) return;
    reason = response.status === 200 ? `the callback answered ${JSON.stringify(text.slice(0, 50))} instead of the challenge` : `the callback answered HTTP ${response.status}`;
  } catch (error) {
    reason = `the callback ${url.toString().slice(0, 200)} could not be reached: ${describeSystemError(error)}`;
  }
  throw new GraphError(2200, `(#2200) subscription validation failed: ${reason}`, { type: 'Exception' });
}
