import { newPageToken } from '../auth/tokens.js';
import { PAGE_ADMINS } from '../schema/authors.js';
import { parseFields } from '../query/parser.js';
import type { Selection } from '../query/selection.js';
import type { Association } from '../store/graph-store.js';
import type { ReadContext } from './context.js';
import type { ItemOf } from './edge-items.js';
import { keyOf } from './plan.js';
import { renderObjectsById } from './render.js';
import type { Json } from '../ids.js';

/** The permission that lets an app have a person's page tokens. */
const MANAGE_PAGES = 'manage_pages';

/** What an `accounts` item shows when the request names no fields, in the real service's order. */
const DEFAULT_ITEM = parseFields('access_token,category,name,perms');
/** Parts of an `accounts` item that belong to the person's role, not to the page node. */
const ROLE_PARTS = new Set(['access_token', 'perms']);
/** The roles of an administrator, for an association that records none. */
const ADMIN_PERMS = ['ADMINISTER', 'EDIT_PROFILE', 'CREATE_CONTENT', 'MODERATE_CONTENT', 'CREATE_ADS', 'BASIC_ADMIN'];

/**
 * Items of `/me/accounts`: each page the person administers, with a fresh page token (tokens are
 * stored hashed, so listing one means issuing one, as for test users) and the person's roles on
 * it. The page tokens carry the person's permissions and live as long as Loom's short-lived
 * tokens; the whole page of them is saved in one store call.
 */
export async function pageAccountItems(context: ReadContext, rows: readonly Association[], children: Selection[] | undefined): Promise<ItemOf> {
  const wanted = children ?? DEFAULT_ITEM;
  const pageIds = [...new Set(rows.map((row) => row.id2))];
  const nodeParts = wanted.filter((child) => !ROLE_PARTS.has(child.name));
  const pages = await renderObjectsById(context, pageIds, nodeParts);
  const wantsToken = wanted.some((child) => child.name === 'access_token');
  const tokens = wantsToken ? await issuePageTokens(context, pageIds) : new Map<number, string>();
  return (row) => {
    const page = pages.get(row.id2);
    if (!page) return undefined;
    const item: Json = {};
    for (const child of wanted) {
      const key = keyOf(child);
      if (child.name === 'access_token') item[key] = tokens.get(row.id2);
      else if (child.name === 'perms') item[key] = Array.isArray(row.data?.perms) ? row.data.perms : ADMIN_PERMS;
      else if (page[key] !== undefined) item[key] = page[key];
    }
    item.id = page.id;
    return item;
  };
}

/** Fresh page tokens of the viewer (a person) for these pages, saved in one store call. */
async function issuePageTokens(context: ReadContext, pageIds: readonly number[]): Promise<Map<number, string>> {
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
 * A page's `access_token` field: a fresh page token for each of these pages the viewer
 * administers, when the viewer granted `manage_pages`; nothing for anyone else. One lookup of
 * the viewer's roles and one save of the tokens for the whole batch.
 */
export async function pageTokenField(context: ReadContext, pageIds: readonly number[]): Promise<Map<number, string>> {
  const { viewer } = context;
  if (viewer.kind !== 'user' || viewer.userId === null || !viewer.scopes.has(MANAGE_PAGES) || pageIds.length === 0) return new Map();
  const admin = viewer.userId;
  const roles = await context.store.getExisting(PAGE_ADMINS, pageIds.map((pageId) => [admin, pageId] as const));
  return issuePageTokens(context, pageIds.filter((pageId) => roles.has(`${admin}:${pageId}`)));
}
