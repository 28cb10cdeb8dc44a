/**
 * A private PostgreSQL primary with a streaming replica, started by scripts/pg-replica.sh for the
 * tests that need replication (or a server whose processes they may pause). Both run until
 * `stop`, or until this test process ends, whichever comes first.
 */
import { execFileSync } from 'node:child_process';
import pg from 'pg';

export interface ReplicatedCluster {
  /** postgres:// URLs of the primary and of its replica. */
  primary: string;
  replica: string;
  stopReplica(): void;
  startReplica(): void;
  /** Stops both and removes their folder. */
  stop(): void;
  /** Runs one statement on the primary or the replica, on a connection of its own. */
  query<R extends pg.QueryResultRow>(on: 'primary' | 'replica', sql: string, values?: unknown[]): Promise<R[]>;
}

const SCRIPT = 'scripts/pg-replica.sh';

/** Starts a primary and a replica that applies each transaction `delayMs` after its commit. */
export function startReplicatedCluster(delayMs = 0): ReplicatedCluster {
  const output = execFileSync(SCRIPT, ['start', '--delay', String(delayMs), '--owner', String(process.pid)], { encoding: 'utf8' });
  const value = (name: string): string => {
    const found = output.match(new RegExp(`^${name}=(.*)$`, 'm'))?.[1];
    if (found === undefined) throw new Error(`${SCRIPT} start printed no ${name}:\n${output}`);
    return found;
  };
  const dir = value('LOOM_PG_DIR');
  const urls = { primary: value('LOOM_PG_PRIMARY'), replica: value('LOOM_PG_REPLICA') };
  const run = (command: string) => execFileSync(SCRIPT, [command, dir], { stdio: 'inherit' });
  return {
    ...urls,
    stopReplica: () => run('stop-replica'),
    startReplica: () => run('start-replica'),
    stop: () => run('stop'),
    query: async <R extends pg.QueryResultRow>(on: 'primary' | 'replica', sql: string, values: unknown[] = []) => {
      const client = new pg.Client({ connectionString: urls[on] });
      await client.connect();
      try {
        return (await client.query<R>(sql, values)).rows;
      } finally {
        await client.end();
      }
    },
  };
}
