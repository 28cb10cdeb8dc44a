/**
 * The `pg` driver, loaded when a PostgreSQL store first connects: a process on SQLite never loads
 * its thirty-odd modules, which cost a short command (`loom token`) a fifth of its start.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';

const require = createRequire(import.meta.url);

export const pgDriver = (): typeof pg => require('pg') as typeof pg;
