// Runs every compiled test file under dist/test with Node's test runner: each on SQLite, and, when
// LOOM_TEST_PG names a PostgreSQL database, the store-using files on PostgreSQL as well. Files run
// in their own processes, several at once (LOOM_TEST_CONCURRENCY, by default three per core): most
// of a test's time is spent waiting on a child process, a socket or the database, so a 2-core
// machine runs several of them in the time of one. Each file keeps its own port, database and folders, so
// they never see each other. A file's report is printed whole when it ends, never interleaved.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
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

const concurrency = Number(process.env.LOOM_TEST_CONCURRENCY || 3 * availableParallelism());
if (!Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write(`LOOM_TEST_CONCURRENCY must be a whole number of at least 1, not "${process.env.LOOM_TEST_CONCURRENCY}".\n`);
  process.exit(2);
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

const jobs = selected.filter((file) => !postgresOnly(file)).map((file) => ({ file, store: 'sqlite' }));
const onPostgres = selected.filter((file) => postgresOnly(file) || usesTestStore(file));
if (process.env.LOOM_TEST_PG) {
  jobs.push(...onPostgres.map((file) => ({ file, store: 'postgres' })));
}

// The longest files start first, so the run does not wait on one that started last. Their lengths
// are those of the last run on this machine, kept beside the build; before a first run, those the
// project keeps (scripts/test-times.json, a slow machine's) order them. Files timed by neither go
// first, those on PostgreSQL before those on SQLite (a file takes longer there).
const timesFile = 'dist/test-times.json';
const keptTimes = JSON.parse(readFileSync('scripts/test-times.json', 'utf8'));
const times = { ...keptTimes, ...(existsSync(timesFile) ? JSON.parse(readFileSync(timesFile, 'utf8')) : {}) };
const key = (job) => `${job.store} ${job.file}`;
const untimed = (job) => (job.store === 'postgres' ? 2e9 : 1e9);
jobs.sort((a, b) => (times[key(b)] ?? untimed(b)) - (times[key(a)] ?? untimed(a)));

// Seeded fixtures that many files share are built once per run, in a folder of their own, and
// each file copies them (see test/helpers/templates.ts).
const templates = mkdtempSync(join(tmpdir(), 'loom-templates-'));

/** The PostgreSQL schemas of this run's templates (their records name them) go with the run. */
async function dropTemplateSchemas() {
  const records = readdirSync(templates).filter((name) => name.startsWith('postgres-') && name.endsWith('.json'));
  if (records.length === 0) return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: process.env.LOOM_TEST_PG });
  await client.connect();
  try {
    for (const record of records) {
      const schema = new URL(JSON.parse(readFileSync(join(templates, record), 'utf8')).location).searchParams.get('schema');
      await client.query(`DROP SCHEMA IF EXISTS "${schema.replace(/"/g, '""')}" CASCADE`);
    }
  } finally {
    await client.end();
  }
}

const started = Date.now();
const counts = { pass: 0, fail: 0, skipped: 0 };
const failed = [];

/** A file still running after this long hangs: it is stopped and fails. */
const FILE_TIMEOUT_MS = 10 * 60_000;
/**
 * Each running file, with its scratch folder. It runs in a process group of its own, so stopping
 * it stops the servers it started too.
 */
const running = new Map();
const stopGroup = (child) => {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const [child, scratch] of running) {
      stopGroup(child);
      removeFolder(scratch);
    }
    removeFolder(templates);
    process.exit(130);
  });
}

// The tests reach no host beyond this machine, so a list of authorities the machine names for
// every Node process is left out: Node reads NODE_EXTRA_CA_CERTS whole at each start (a system
// bundle costs some 80 ms a process), and the suite starts well over a thousand. A test that
// trusts an authority (Loom's own) names it itself.
const { NODE_EXTRA_CA_CERTS: _machineAuthorities, ...testEnv } = process.env;

function removeFolder(path) {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // A process of the file still writing there keeps its folder; the run goes on.
  }
}

function runJob(job) {
  return new Promise((finish) => {
    const began = Date.now();
    // The file's temporary files, and those of every process it starts, go in a folder of its
    // own (TMPDIR), removed when the file ends: nothing a test leaves there outlives it.
    const scratch = mkdtempSync(join(tmpdir(), 'loom-test-'));
    // Open to other users as the system's own temporary folder is: the scratch PostgreSQL
    // clusters of the replica tests run as the postgres user, in folders made inside it.
    chmodSync(scratch, 0o755);
    const env = { ...testEnv, TMPDIR: scratch, LOOM_TEST_STORE: job.store, LOOM_TEST_TEMPLATES: templates };
    // The file runs as a process of its own (not under `node --test`, which would add a second).
    const child = spawn(process.execPath, ['--test-reporter=spec', job.file], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.set(child, scratch);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup(child);
    }, FILE_TIMEOUT_MS);
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      removeFolder(scratch);
      if (timedOut) chunks.push(Buffer.from(`\nStopped: the file was still running after ${FILE_TIMEOUT_MS / 60_000} minutes.\n`));
      const seconds = (Date.now() - began) / 1000;
      times[key(job)] = seconds;
      const output = Buffer.concat(chunks).toString('utf8');
      const count = (word) => Number(output.match(new RegExp(`^ℹ ${word} (\\d+)$`, 'm'))?.[1] ?? 0);
      counts.pass += count('pass');
      counts.fail += Math.max(count('fail'), code === 0 ? 0 : 1);
      counts.skipped += count('skipped');
      const ok = code === 0;
      if (!ok) failed.push(`${job.store}: ${job.file}${signal ? ` (${signal})` : ''}`);
      process.stdout.write(`\n=== ${ok ? 'ok' : 'FAILED'} ${job.store}: ${job.file} (${seconds.toFixed(1)} s)\n${output}`);
      finish();
    });
  });
}

const queue = [...jobs];
const label = process.env.LOOM_TEST_PG ? 'SQLite and PostgreSQL' : 'SQLite';
process.stdout.write(`=== ${label}: ${jobs.length} test file runs, ${concurrency} at a time ===\n`);
try {
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) await runJob(job);
    }),
  );
} finally {
  await dropTemplateSchemas();
  removeFolder(templates);
}
if (existsSync('dist')) writeFileSync(timesFile, JSON.stringify(times, null, 1));

if (!process.env.LOOM_TEST_PG && onPostgres.length > 0) {
  process.stdout.write(
    `\n=== PostgreSQL: SKIPPED (${onPostgres.length} test files not run against PostgreSQL). ` +
      `Set LOOM_TEST_PG to a database URL, e.g. LOOM_TEST_PG=postgres://postgres@127.0.0.1:5432/postgres npm test ===\n`,
  );
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
process.stdout.write(`\n=== ${jobs.length} test file runs in ${minutes} min, ${concurrency} at a time ===\n`);
for (const name of failed) process.stdout.write(`FAILED ${name}\n`);
process.stdout.write(`tests: ${counts.pass} passed, ${counts.fail} failed\n`);
process.exit(failed.length === 0 ? 0 : 1);
