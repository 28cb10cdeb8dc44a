import cluster from 'node:cluster';
import { envReadReplicas } from '../config.js';
import { isPostgresLocation } from '../store/open-store.js';
import type { ReplicaSettings } from '../store/postgres/replica-set.js';
import { redactPassword } from '../store/redact-password.js';
import { UsageError } from './args.js';

export const DEFAULT_MAX_REPLICA_LAG_S = 5;

/**
 * `--read-replica URL` (any number of them), else LOOM_READ_REPLICAS, and `--max-replica-lag S`:
 * the replicas a PostgreSQL database is read from, or undefined when none is named.
 */
export function replicaOptions(db: string, flags: string[] | undefined, maxLag: string | undefined): ReplicaSettings | undefined {
  const urls = flags !== undefined && flags.length > 0 ? flags : envReadReplicas();
  if (urls.length === 0) {
    if (maxLag !== undefined) throw new UsageError('--max-replica-lag needs at least one --read-replica');
    return undefined;
  }
  if (!isPostgresLocation(db)) throw new UsageError(`read replicas serve a PostgreSQL database; --db ${redactPassword(db)} is not a postgres:// URL`);
  for (const url of urls) {
    if (!isPostgresLocation(url) || !URL.canParse(url)) throw new UsageError(`the read replica ${redactPassword(url)} is not a PostgreSQL URL such as postgres://user@host:5432/database`);
  }
  const seconds = maxLag === undefined ? DEFAULT_MAX_REPLICA_LAG_S : Number(maxLag);
  if (maxLag !== undefined && (!/^\d+(\.\d+)?$/.test(maxLag) || seconds <= 0)) {
    throw new UsageError(`--max-replica-lag must be a number of seconds above 0, not "${maxLag}"`);
  }
  return { urls, maxLagMs: Math.round(seconds * 1000), report: reportReplica };
}

/** Each process measures the replicas itself, so a worker names itself in what it tells. */
function reportReplica(line: string): void {
  process.stderr.write(`loom: ${cluster.isWorker ? `worker ${process.pid}: ` : ''}${line}\n`);
}
