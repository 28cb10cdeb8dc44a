import type pg from 'pg';
import type { ObjectId } from '../../ids.js';

/** Counts one call per subject in `minute`, drops minutes before `since`, and sums the rest. */
export async function countCalls(client: pg.ClientBase, subjects: readonly string[], minute: number, since: number): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  for (const subject of subjects) {
    await client.query('DELETE FROM call_counts WHERE subject = $1 AND minute < $2', [subject, since]);
    await client.query(
      'INSERT INTO call_counts (subject, minute, calls) VALUES ($1, $2, 1) ON CONFLICT (subject, minute) DO UPDATE SET calls = call_counts.calls + 1',
      [subject, minute],
    );
    const { rows } = await client.query<{ calls: number }>(
      'SELECT coalesce(sum(calls), 0)::bigint AS calls FROM call_counts WHERE subject = $1 AND minute BETWEEN $2 AND $3',
      [subject, since, minute],
    );
    totals.set(subject, rows[0]!.calls);
  }
  return totals;
}

export async function countAppUsers(pool: pg.Pool, appId: ObjectId): Promise<number> {
  const { rows } = await pool.query<{ users: number }>('SELECT count(DISTINCT user_id)::bigint AS users FROM grants WHERE app_id = $1', [appId]);
  return rows[0]!.users;
}
