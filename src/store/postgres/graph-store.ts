import type { GraphStore } from '../graph-store.js';
import type { WriteOp } from '../write-ops.js';
import type { PostgresDatabase } from './database.js';
import { postgresGraphReads } from './graph-reads.js';
import { declareSearchable } from './search.js';
import { applyOps } from './write-batch.js';

/**
 * Write ops that may change an auth table (the others change only the graph): deleting an
 * object deletes the app it may be, with its tokens and grants.
 */
const AUTH_OPS = new Set<WriteOp['op']>(['deleteUser', 'deleteObject', 'setCredentials', 'setGrants', 'saveToken']);

/** The graph on PostgreSQL: its reads (graph-reads.ts), the write batches and the search index's declaration. */
export function postgresGraphStore(database: PostgresDatabase): GraphStore {
  return {
    ...postgresGraphReads(database),

    async write(ops) {
      if (ops.length === 0) return { results: [] };
      const applied = database.transaction((client) => applyOps(client, ops));
      return { results: await (ops.some((op) => AUTH_OPS.has(op.op)) ? database.afterAuthChange(applied) : applied) };
    },

    async declareSearchable(types, onReindex) {
      await database.transaction((client) => declareSearchable(client, types, onReindex));
    },
  };
}
