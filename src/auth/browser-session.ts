import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ObjectId } from '../ids.js';

/**
 * Who a browser is signed in as, after the sign-in dialog or a test user's login link: a
 * cookie holding the user and an expiry, signed with the installation's dialog key, so the
 * server keeps no session table and a browser cannot forge or stretch one. While it lasts, the
 * sign-in dialog skips straight to consent (renewing a token needs no password).
 */
export interface BrowserSession {
  userId: ObjectId;
  /** Unix seconds. */
  expiresAt: number;
}

export const SESSION_COOKIE = 'loom_session';
/** A working day: long enough to renew tokens all day, short enough to be forgotten overnight. */
export const SESSION_SECONDS = 12 * 60 * 60;

export function sealSession(key: Buffer, session: BrowserSession): string {
  const body = `${session.userId}.${session.expiresAt}`;
  return `${body}.${sign(key, body)}`;
}

/** The session, if the text is one this server signed and it has not expired. */
export function openSession(key: Buffer, text: string | undefined, now: number): BrowserSession | undefined {
  const match = /^(\d{1,16})\.(\d{1,12})\.([\w-]{43})$/.exec(text ?? '');
  if (!match) return undefined;
  const [, userId, expiresAt, signature] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(sign(key, `${userId}.${expiresAt}`));
  if (!timingSafeEqual(expected, Buffer.from(signature))) return undefined;
  return Number(expiresAt) > now ? { userId: Number(userId), expiresAt: Number(expiresAt) } : undefined;
}

function sign(key: Buffer, body: string): string {
  // Its own prefix, so no dialog ticket signature ever passes for a session's.
  return createHmac('sha256', key).update(`loom-session.${body}`).digest('base64url');
}
