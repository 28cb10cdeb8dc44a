/**
 * A declared schema applied to a scratch store (SQLite or PostgreSQL, as the run says) and served
 * over real HTTP the way `loom serve --db` serves it, with helpers to put nodes in by the team's
 * keys and to issue tokens of the schema's app.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appAccessToken } from '../../src/auth/apps.js';
import { scopedIdsFor } from '../../src/auth/viewer.js';
import { issueToken } from '../../src/cli/demo.js';
import { Clock } from '../../src/clock/clock.js';
import { applyDeclaration } from '../../src/declared/apply.js';
import { followAppliedSchema, loadAppliedSchema } from '../../src/declared/applied.js';
import { loadDeclaration } from '../../src/declared/load.js';
import type { Store } from '../../src/store/store.js';
import type { AppRecord } from '../../src/store/auth-store.js';
import type { WriteOp } from '../../src/store/write-ops.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { openScratchStore } from '../helpers/test-store.js';

export const NOW = 1_700_000_000;

export interface DeclaredServer {
  store: Store;
  server: TestServer;
  app: AppRecord;
  dir: string;
  /** Internal id of the node put in under this key. */
  id(key: string): number;
  /** The id a client of the schema's app sees for the node of this key (app-scoped for principals). */
  shown(key: string): string;
  /** A user token of the schema's app for the principal node of this key. */
  token(key: string, scopes?: readonly string[]): Promise<string>;
  appToken: string;
  /**
   * Puts nodes in: `{type, key, owner?, data, time?}` with data under storage keys; ref values
   * written as `@key` become the internal id of that node. Links: `{assoc, from, to, time?}` by key.
   */
  put(items: ReadonlyArray<NodeItem | LinkItem>): Promise<void>;
  /** Applies another version of the declaration (the text of the main file) while serving. */
  reapply(yaml: string): Promise<void>;
  /** GET with a token, the path's query given as an object. */
  get(path: string, token: string | undefined, params?: Record<string, string>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

interface NodeItem {
  type: string;
  key: string;
  owner?: string;
  data?: Record<string, unknown>;
  time?: number;
}

interface LinkItem {
  assoc: string;
  from: string;
  to: string;
  time?: number;
}

export async function declaredServer(yaml: string, files: Record<string, string> = {}): Promise<DeclaredServer> {
  const dir = mkdtempSync(join(tmpdir(), 'loom-declared-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const file = join(dir, 'schema.loom.yaml');
  writeFileSync(file, yaml);
  const store = await openScratchStore();
  const { app } = await applyDeclaration(store, loadDeclaration(file), NOW);
  const loaded = (await loadAppliedSchema(store))!;
  const server = await startServer(store, {
    clock: Clock.frozenAt(NOW + 1000),
    schema: loaded.schema,
    followSchema: followAppliedSchema(store, { version: loaded.applied.version, schema: loaded.schema }),
  });
  const ids = new Map<string, number>();
  const types = new Map<string, string>();
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string' && value.startsWith('@')) return ids.get(value.slice(1)) ?? fail(`no node ${value}`);
    if (Array.isArray(value)) return value.map(resolve);
    return value;
  };
  const schemaIds = scopedIdsFor(app);
  const declared: DeclaredServer = {
    store,
    server,
    app,
    dir,
    appToken: appAccessToken(app),
    id: (key) => ids.get(key) ?? fail(`no node ${key}`),
    shown: (key) => {
      const id = declared.id(key);
      return types.get(key) === loaded.schema.principal ? schemaIds.scope(id) : String(id);
    },
    token: async (key, scopes = loaded.schema.allScopes()) => (await issueToken(store, loaded.schema.permissions, app, declared.id(key), scopes, 3600)).accessToken,
    async put(items) {
      // Links go in one write per run of them; nodes one by one, as each needs its id recorded.
      let links: WriteOp[] = [];
      const flush = async () => {
        if (links.length > 0) await store.write(links);
        links = [];
      };
      for (const item of items) {
        const ops: WriteOp[] = [];
        if ('type' in item) {
          await flush();
          const data = Object.fromEntries(Object.entries(item.data ?? {}).map(([key, value]) => [key, resolve(value)]));
          const owner = item.owner === undefined ? null : declared.id(item.owner);
          const time = item.time ?? NOW;
          ops.push({ op: 'createObject', object: { type: item.type, owner, createdTime: time, updatedTime: time, data } });
          ops.push({ op: 'setDeclaredKey', type: item.type, key: item.key, id: { ref: 0 } });
          const { results } = await store.write(ops);
          ids.set(item.key, results[0] as number);
          types.set(item.key, item.type);
        } else {
          links.push({ op: 'addAssoc', type: item.assoc, id1: declared.id(item.from), id2: declared.id(item.to), time: item.time ?? NOW });
        }
      }
      await flush();
    },
    async reapply(text) {
      writeFileSync(file, text);
      await applyDeclaration(store, loadDeclaration(file), NOW + 500);
    },
    async get(path, token, params = {}) {
      const reply = await server.get(path, token === undefined ? params : { ...params, access_token: token });
      return { status: reply.status, body: reply.body };
    },
    async close() {
      await server.close();
      await store.close();
    },
  };
  return declared;
}

function fail(message: string): never {
  throw new Error(message);
}

/** Every item of an edge, following `paging.next` links one page at a time. */
export async function allPages(server: DeclaredServer, path: string, token: string | undefined, params: Record<string, string>): Promise<any[]> {
  const items: any[] = [];
  let reply = await server.get(path, token, params);
  for (let pages = 0; pages < 50; pages += 1) {
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    items.push(...reply.body.data);
    const next = reply.body.paging?.next as string | undefined;
    if (!next) return items;
    const response = await fetch(next);
    reply = { status: response.status, body: await response.json() };
  }
  throw new Error('more than 50 pages');
}
