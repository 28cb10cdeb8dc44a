import { issuePageTokens } from '../engine/read/page-tokens.js';
import { keyOf } from '../engine/read/plan.js';
import { renderObjectsById } from '../engine/read/render.js';
import type { Json } from '../ids.js';
import { parseFields } from '../query/parser.js';
import type { EdgeItems } from '../schema/behaviours.js';

/** What an `accounts` item shows when the request names no fields, in the real service's order. */
const DEFAULT_ITEM = parseFields('access_token,category,name,perms');
/** Parts of an `accounts` item that belong to the person's role, not to the page node. */
const ROLE_PARTS = new Set(['access_token', 'perms']);
/** The roles of an administrator, for an association that records none. */
const ADMIN_PERMS = ['ADMINISTER', 'EDIT_PROFILE', 'CREATE_CONTENT', 'MODERATE_CONTENT', 'CREATE_ADS', 'BASIC_ADMIN'];

/**
 * Items of `/me/accounts`: each page the person administers, with a fresh page token (tokens are
 * stored hashed, so listing one means issuing one, as for test users) and the person's roles on
 * it; the whole page of tokens is saved in one store call.
 */
export const pageAccountItems: EdgeItems = {
  showsNodes: true,
  render: async (context, rows, children) => {
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
  },
};
