import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DialogError, finishDialog, openDialog, signIn, type DialogRequest } from '../auth/dialog.js';
import { SignInThrottle } from '../auth/sign-in-throttle.js';
import { openSession, sealSession, SESSION_COOKIE, SESSION_SECONDS } from '../auth/browser-session.js';
import { isNonce, newNonce, openTicket, sealTicket, ticketKey, TICKET_SECONDS, type DialogTicket } from '../auth/dialog-ticket.js';
import type { StoredObject } from '../store/graph-store.js';
import type { AppSettings } from './settings.js';
import { readCookie, setCookie } from './cookies.js';
import { consentPage, messagePage, signInPage } from './dialog-pages.js';
import { versionedPaths } from './to-graph-request.js';
import { answeringVersion, pathVersion } from '../dispatch/api-version.js';
import type { AppRecord } from '../store/auth-store.js';

const COOKIE = 'loom_dialog';
/** The dialog a browser was asked to sign in to, offered again once a login link signed it in. */
export const PENDING_DIALOG_COOKIE = 'loom_pending_dialog';
const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * `/dialog/oauth`: a sign-in page, then a consent page, then a redirect to the app. Each form
 * carries a signed ticket; its nonce must match this browser's same-site cookie, so a form
 * posted from another site is refused.
 */
export async function dialogRoutes(app: FastifyInstance, { settings }: { settings: AppSettings }): Promise<void> {
  // The consent form repeats `scope` once per ticked box, so this plugin keeps every value.
  app.removeContentTypeParser('application/x-www-form-urlencoded');
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, new URLSearchParams(body as string));
  });
  // Read once, like the business key: it never changes once made.
  const key = await ticketKey(settings.store);
  const throttle = new SignInThrottle(settings.signInLimits, settings.clock);

  for (const url of versionedPaths('/dialog/oauth')) {
    app.get(url, async (request, reply) => {
      let dialog: DialogRequest;
      try {
        const ownOrigins = originsOf(request, settings.publicUrl);
        // The permissions offered are those of the dialog's version: its path's, else its app's.
        const fromPath = pathVersion((request.params as { version?: string }).version, ['dialog', 'oauth']);
        const versionFor = (app: AppRecord) => answeringVersion(fromPath, app, settings.defaultVersion);
        dialog = await openDialog(settings.store, request.query as Record<string, unknown>, { permissions: settings.schema.permissions, versionFor, ownOrigins });
      } catch (error) {
        if (error instanceof DialogError) return sendPage(reply, 400, messagePage(error.title, error.message));
        throw error;
      }
      const cookie = readCookie(request, COOKIE);
      const nonce = isNonce(cookie) ? cookie : newNonce();
      setCookie(request, reply, COOKIE, nonce, TICKET_SECONDS);
      const signedIn = await sessionUser(request);
      if (signedIn) {
        // Signed in already (the dialog earlier, or a test user's login link): no password again.
        const consent = seal({ stage: 'consent', ...fromRequest(dialog), nonce, userId: signedIn.id });
        const switchUrl = `/logout?${new URLSearchParams({ next: request.url })}`;
        const view = { appName: dialog.app.name, userName: String(signedIn.data.name ?? 'you'), scopes: dialog.scopes, ticket: consent, switchUrl };
        return sendPage(reply, 200, consentPage(settings.schema.permissions, view));
      }
      // Kept so that a test user's login link, opened meanwhile, can lead back here.
      setCookie(request, reply, PENDING_DIALOG_COOKIE, encodeURIComponent(request.url), TICKET_SECONDS);
      const ticket = seal({ stage: 'sign-in', ...fromRequest(dialog), nonce });
      return sendPage(reply, 200, signInPage({ appName: dialog.app.name, ticket }));
    });

    app.post(url, async (request, reply) => {
      const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
      const now = settings.clock.now();
      const ticket = openTicket(key, form.get('ticket'), now);
      if (!ticket || ticket.nonce !== readCookie(request, COOKIE)) {
        return sendPage(reply, 403, messagePage('This page has expired', 'Go back to the app and start signing in again.'));
      }
      const appRecord = (await settings.store.getApps([ticket.appId])).get(ticket.appId);
      if (!appRecord) return sendPage(reply, 400, messagePage('This link cannot be used', 'The app no longer exists.'));
      const dialog: DialogRequest = { ...ticket, app: appRecord };

      if (ticket.stage === 'sign-in') {
        const email = form.get('email') ?? '';
        const attempt = throttle.attempt(email, request.ip);
        if (!attempt.allowed) {
          const minutes = Math.ceil(attempt.retryAfter / 60);
          reply.header('retry-after', String(attempt.retryAfter));
          const message = `There have been too many failed attempts to log in. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
          return sendPage(reply, 429, messagePage('Too many attempts', message));
        }
        const userId = await signIn(settings.store, email, form.get('password') ?? '');
        if (userId === undefined) {
          const retry = seal({ ...ticket, expiresAt: now + TICKET_SECONDS });
          const error = 'The email or password you entered is incorrect.';
          return sendPage(reply, 200, signInPage({ appName: appRecord.name, ticket: retry, email, error }));
        }
        attempt.succeeded();
        setCookie(request, reply, SESSION_COOKIE, sealSession(key, { userId, expiresAt: now + SESSION_SECONDS }), SESSION_SECONDS);
        const user = (await settings.store.getObjects([userId])).get(userId);
        const consent = seal({ ...ticket, stage: 'consent', userId, expiresAt: now + TICKET_SECONDS });
        const page = consentPage(settings.schema.permissions, { appName: appRecord.name, userName: String(user?.data.name ?? 'you'), scopes: ticket.scopes, ticket: consent });
        return sendPage(reply, 200, page);
      }

      const decision = form.get('decision');
      if (ticket.userId === undefined || (decision !== 'allow' && decision !== 'deny')) {
        return sendPage(reply, 400, messagePage('Something went wrong', 'Choose Continue or Cancel.'));
      }
      const target = await finishDialog(
        settings.store,
        dialog,
        ticket.userId,
        decision === 'allow' ? { allow: true, ticked: form.getAll('scope') } : { allow: false },
        { permissions: settings.schema.permissions, now, tokenLifetime: settings.tokenLifetime },
      );
      return reply.code(302).header('location', target).send();
    });
  }

  /** The person this browser is signed in as, while the session lasts and they exist. */
  async function sessionUser(request: FastifyRequest): Promise<StoredObject | undefined> {
    const session = openSession(key, readCookie(request, SESSION_COOKIE), settings.clock.now());
    if (!session) return undefined;
    const user = (await settings.store.getObjects([session.userId])).get(session.userId);
    return user?.type === 'user' ? user : undefined;
  }

  function seal(ticket: Omit<DialogTicket, 'expiresAt'> & { expiresAt?: number }): string {
    return sealTicket(key, { ...ticket, expiresAt: ticket.expiresAt ?? settings.clock.now() + TICKET_SECONDS });
  }
}

function fromRequest(dialog: DialogRequest): Omit<DialogTicket, 'stage' | 'nonce' | 'expiresAt'> {
  const { app, ...rest } = dialog;
  return { ...rest, appId: app.id };
}

/** The origins Loom answers on: the one this request came to, and the configured public URL's. */
function originsOf(request: FastifyRequest, publicUrl: string | undefined): string[] {
  return [`${request.protocol}://${request.host}`, publicUrl ?? '']
    .filter((text) => URL.canParse(text))
    .map((text) => new URL(text).origin);
}

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', HTML_TYPE)
    // The pages carry signed tickets and the person's email: nothing may keep a copy.
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}
