/**
 * Snapshots: named copies of a whole store, restored in one transaction so that every process
 * on the same database sees the old state or the restored one, never a mix.
 */

export interface SnapshotInfo {
  name: string;
  /** Unix seconds, as the caller's clock said when the snapshot was taken. */
  createdTime: number;
}

/**
 * Settings under this prefix describe the running servers (their clock, faults, rate-limit
 * switches) or the database itself (its id), not the graph: a restore leaves them as they are.
 */
export const LIVE_SETTING_PREFIX = 'live.';

/** The database's own identity (database-id.ts), a live setting. */
export const DATABASE_ID_SETTING = `${LIVE_SETTING_PREFIX}database_id`;

/** Letters, digits, `.`, `_` and `-`; a leading `.` marks names the server keeps for itself. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function checkSnapshotName(name: string): void {
  if (!SNAPSHOT_NAME.test(name) || name === '.' || name === '..') throw new RangeError(`Not a snapshot name: ${JSON.stringify(name.slice(0, 80))}`);
}
