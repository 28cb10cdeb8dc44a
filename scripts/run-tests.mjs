// Runs every compiled test file under dist/test with Node's test runner: once on SQLite, then,
// when LOOM_TEST_PG names a PostgreSQL database, the store-using files again on PostgreSQL.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

// Only tests whose source still exists: a deleted test must not linger in an incremental build.
const files = testFiles('dist/test')
  .filter((file) => existsSync(file.replace(/^dist[\\/]/, '').replace(/\.js$/, '.ts')))
  .sort();
const filter = process.argv[2];
const selected = filter ? files.filter((file) => file.includes(filter)) : files;
if (selected.length === 0) {
  // A mistyped filter must not pass for a green run.
  process.stderr.write(filter ? `No test file under dist/test matches "${filter}"; nothing was run.\n` : 'No test file under dist/test; nothing was run.\n');
  process.exit(1);
}

// Files named postgres-*.test.ts test the PostgreSQL store itself and run in its half only.
const postgresOnly = (file) => /[\\/]postgres-[^\\/]*\.test\.js$/.test(file);
// A file that reaches test/helpers/test-store (directly or through the fixture) runs on each store.
const storeHelper = resolve('dist/test/helpers/test-store.js');
const reaches = new Map();
function usesTestStore(file) {
  const path = resolve(file);
  if (path === storeHelper) return true;
  if (!reaches.has(path)) {
    reaches.set(path, false);
    const imports = [...readFileSync(path, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => resolve(dirname(path), m[1]));
    reaches.set(path, imports.some((target) => existsSync(target) && usesTestStore(target)));
  }
  return reaches.get(path);
}

function run(label, list, store) {
  if (list.length === 0) return 0;
  process.stdout.write(`\n=== ${label}: ${list.length} test files ===\n`);
  const env = { ...process.env, LOOM_TEST_STORE: store };
  const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...list], { stdio: 'inherit', env });
  return result.status ?? 1;
}

const onSqlite = selected.filter((file) => !postgresOnly(file));
const onPostgres = selected.filter((file) => postgresOnly(file) || usesTestStore(file));
const statuses = [run('SQLite', onSqlite, 'sqlite')];
if (process.env.LOOM_TEST_PG) {
  statuses.push(run('PostgreSQL', onPostgres, 'postgres'));
} else if (onPostgres.length > 0) {
  process.stdout.write(
    `\n=== PostgreSQL: SKIPPED (${onPostgres.length} test files not run against PostgreSQL). ` +
      `Set LOOM_TEST_PG to a database URL, e.g. LOOM_TEST_PG=postgres://postgres@127.0.0.1:5432/postgres npm test ===\n`,
  );
}
process.exit(statuses.every((status) => status === 0) ? 0 : 1);
