import type Database from 'better-sqlite3';
import type { ObjectId } from '../../ids.js';

/** Calls per subject and minute (rate limits), and the count of an app's users (their budget). */
export class SqliteCallCounts {
  private readonly count: (subjects: readonly string[], minute: number, since: number) => Map<string, number>;
  private readonly appUsers: Database.Statement<[ObjectId], { users: number }>;

  constructor(db: Database.Database) {
    const drop = db.prepare<[string, number]>('DELETE FROM call_counts WHERE subject = ? AND minute < ?');
    const add = db.prepare<[string, number]>(
      'INSERT INTO call_counts (subject, minute, calls) VALUES (?, ?, 1) ON CONFLICT (subject, minute) DO UPDATE SET calls = calls + 1',
    );
    const sum = db.prepare<[string, number, number], { calls: number }>(
      'SELECT coalesce(sum(calls), 0) AS calls FROM call_counts WHERE subject = ? AND minute BETWEEN ? AND ?',
    );
    const transaction = db.transaction((subjects: readonly string[], minute: number, since: number) => {
      const totals = new Map<string, number>();
      for (const subject of subjects) {
        drop.run(subject, since);
        add.run(subject, minute);
        totals.set(subject, sum.get(subject, since, minute)!.calls);
      }
      return totals;
    });
    this.count = (subjects, minute, since) => transaction.immediate(subjects, minute, since);
    this.appUsers = db.prepare('SELECT count(DISTINCT user_id) AS users FROM grants WHERE app_id = ?');
  }

  countCalls(subjects: readonly string[], minute: number, since: number): Map<string, number> {
    return this.count(subjects, minute, since);
  }

  countAppUsers(appId: ObjectId): number {
    return this.appUsers.get(appId)!.users;
  }
}
