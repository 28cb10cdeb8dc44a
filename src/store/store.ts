import type { AdminStore } from './admin-store.js';
import type { AppStore, AuthStore } from './auth-store.js';
import type { GraphReads, GraphStore } from './graph-store.js';
import type { RecordStore } from './records.js';
import type { WebhookStore } from './webhook-store.js';

/**
 * The store whole: the sum of its roles, each a contract of its own and implemented on its own
 * for each database. Its methods are those of the graph (graph-store.ts), the apps and the other auth
 * records (auth-store.ts), the installation around them (admin-store.ts) and the store as records
 * (records.ts); the webhooks' tables (webhook-store.ts) are a part of it held apart.
 */
export type Store = GraphStore &
  AppStore &
  AuthStore &
  AdminStore &
  RecordStore & {
    /** Webhook subscriptions, the outbox of changes and the delivery queue. */
    readonly webhooks: WebhookStore;
    /**
     * The graph's reads for a request that only reads, where the store has read replicas: each
     * answered by a replica in good standing, else by the store itself (see readingStore).
     */
    readonly replicaReads?: GraphReads;
    close(): Promise<void>;
  };
