import { newPageToken } from '../../auth/tokens.js';
import { PAGE_ADMINS } from '../../schema/authors.js';
import type { ReadContext } from '../request/context.js';

/**
 * Fresh page tokens of the viewer (a person) for these pages, saved in one store call. The page
 * tokens carry the person's permissions and live as long as Loom's short-lived tokens.
 */
export async function issuePageTokens(context: ReadContext, pageIds: readonly number[]): Promise<Map<number, string>> {
  const { viewer } = context;
  const tokens = new Map<number, string>();
  if (viewer.kind !== 'user' || viewer.userId === null || pageIds.length === 0) return tokens;
  const admin = viewer.userId;
  const issued = pageIds.map((pageId) => {
    const token = newPageToken({ appId: viewer.app.id, userId: admin, pageId, scopes: [...viewer.scopes], expiresIn: context.tokenLifetime, now: context.now });
    tokens.set(pageId, token.accessToken);
    return token.record;
  });
  await context.store.saveTokens(issued);
  return tokens;
}

/**
 * A field whose source is `page_token` (a page's `access_token`): a fresh page token for each of
 * these pages the viewer administers, when the viewer granted the permission the schema says gives
 * page tokens (the Graph's manage_pages); nothing for anyone else. One lookup of the viewer's roles and one save of the tokens for the whole batch.
 */
export async function pageTokenField(context: ReadContext, pageIds: readonly number[]): Promise<Map<number, string>> {
  const { viewer } = context;
  const permission = context.schema.permissions.pageTokens;
  if (viewer.kind !== 'user' || viewer.userId === null || permission === undefined || !viewer.scopes.has(permission) || pageIds.length === 0) return new Map();
  const admin = viewer.userId;
  const roles = await context.store.getExisting(PAGE_ADMINS, pageIds.map((pageId) => [admin, pageId] as const));
  return issuePageTokens(context, pageIds.filter((pageId) => roles.has(`${admin}:${pageId}`)));
}
