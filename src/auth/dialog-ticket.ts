import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { ObjectId } from '../ids.js';
import { DIALOG_SIGNING_KEY } from './server-keys.js';

/**
 * The sign-in dialog keeps its state in the page, as a hidden field the server signed: what the
 * app asked for, who signed in (once someone has), the browser's anti-forgery nonce, and an
 * expiry. Nothing the browser sends besides a valid ticket is trusted.
 */
export interface DialogTicket {
  stage: 'sign-in' | 'consent';
  appId: ObjectId;
  redirectUri: string;
  scopes: string[];
  state?: string;
  responseType: 'code' | 'token';
  userId?: ObjectId;
  /** Also set as a same-site cookie: a form posted from another site lacks it. */
  nonce: string;
  /** Unix seconds. */
  expiresAt: number;
}

/** How long a dialog page may sit before its form must be started over. */
export const TICKET_SECONDS = 10 * 60;

export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function isNonce(text: string | undefined): text is string {
  return text !== undefined && /^[\w-]{24}$/.test(text);
}

/**
 * The installation's signing key: made on first use and kept in the settings, so every server
 * process shares it; processes starting together agree on one through the store.
 */
export async function ticketKey(store: Store): Promise<Buffer> {
  return Buffer.from(await store.initSetting(DIALOG_SIGNING_KEY, randomBytes(32).toString('hex')), 'hex');
}

export function sealTicket(key: Buffer, ticket: DialogTicket): string {
  const body = Buffer.from(JSON.stringify(ticket)).toString('base64url');
  return `${body}.${sign(key, body)}`;
}

/** The ticket, if the text is one this server signed and it has not expired. */
export function openTicket(key: Buffer, text: string | null | undefined, now: number): DialogTicket | undefined {
  const [body, signature, ...rest] = (text ?? '').split('.');
  if (!body || !signature || rest.length > 0) return undefined;
  const expected = Buffer.from(sign(key, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const ticket = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as DialogTicket;
  return ticket.expiresAt > now ? ticket : undefined;
}

function sign(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(`loom-dialog.${body}`).digest('base64url');
}
