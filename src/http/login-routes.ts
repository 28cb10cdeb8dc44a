import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE, SESSION_SECONDS, sealSession } from '../auth/browser-session.js';
import { ticketKey } from '../auth/dialog-ticket.js';
import { redeemLoginCode } from '../auth/login-links.js';
import { scopedIdsFor } from '../auth/viewer.js';
import type { AppSettings } from './settings.js';
import { readCookie, setCookie } from './cookies.js';
import { messagePage, signedInPage } from './dialog-pages.js';
import { PENDING_DIALOG_COOKIE, sendPage } from './dialog-routes.js';

/** Only Loom's own dialog may be offered again: a cookie is no place to trust an address from. */
const DIALOG_PATH = /^\/(v\d+\.\d+\/)?dialog\/oauth\?[^#]*$/;
const SIGN_OUT_TARGET = /^\/((v\d+\.\d+\/)?dialog\/oauth\?[^#]*|explorer)$/;

/**
 * A test user's `login_url` (`/checkpoint/test-user-login/<id>/?code=…`), which signs the
 * browser in as that person, and `/logout`, which signs it out.
 */
export async function loginRoutes(app: FastifyInstance, { settings }: { settings: AppSettings }): Promise<void> {
  const key = await ticketKey(settings.store);

  app.get<{ Params: { id: string }; Querystring: { code?: unknown } }>('/checkpoint/test-user-login/:id/', async (request, reply) => {
    const now = settings.clock.now();
    const code = typeof request.query.code === 'string' ? request.query.code : '';
    const login = await redeemLoginCode(settings.store, code, now);
    const appRecord = login && (await settings.store.getApps([login.appId])).get(login.appId);
    const user = login && (await settings.store.getObjects([login.userId])).get(login.userId);
    if (!login || !appRecord || !user || scopedIdsFor(appRecord).scope(login.userId) !== request.params.id) {
      const message = 'A login link works once, for an hour. List the app’s test users again for a fresh one.';
      return sendPage(reply, 403, messagePage('This login link cannot be used', message));
    }
    setCookie(request, reply, SESSION_COOKIE, sealSession(key, { userId: login.userId, expiresAt: now + SESSION_SECONDS }), SESSION_SECONDS);
    const pending = decodeURIComponent(readCookie(request, PENDING_DIALOG_COOKIE) ?? '');
    const page = signedInPage({
      userName: String(user.data.name ?? 'a test user'),
      appName: appRecord.name,
      explorerUrl: '/explorer',
      ...(DIALOG_PATH.test(pending) ? { pendingDialogUrl: pending } : {}),
    });
    return sendPage(reply, 200, page);
  });

  // Signing out is harmless to trigger from anywhere, so a plain link does it.
  app.get<{ Querystring: { next?: unknown } }>('/logout', async (request, reply) => {
    setCookie(request, reply, SESSION_COOKIE, '', 0);
    const next = typeof request.query.next === 'string' && SIGN_OUT_TARGET.test(request.query.next) ? request.query.next : '/explorer';
    return reply.code(302).header('cache-control', 'no-store').header('location', next).send();
  });
}
