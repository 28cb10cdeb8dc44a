// Bundles the built CLI (dist/src/cli/main.js) and the modules it imports into a few files in
// dist/src/bundle/, which bin/loom runs. Node 20 resolves, reads, compiles and links each ES module
// on its own, and `loom serve` loads six hundred of them: bundled, it starts in about half the CPU
// time and `loom token` in three quarters, and the test suite, which runs the CLI a thousand
// times, uses about a tenth less CPU. Each command's own modules stay in chunks of their own,
// loaded when it runs, so a short command (`loom --help`) reads no more than it did.
//
// The bundle's folder lies beside src/cli, so the files a module finds relative to its own place
// (../../../package.json, ../graph/graph-v2.4.declaration.json) are the same ones from the bundle.
// Two packages stay outside: better-sqlite3, whose compiled addon is found next to its own code,
// and pg, which only a process that uses PostgreSQL loads (src/store/postgres/pg-driver.ts).
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const file = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const folder = file('dist/src/bundle');
/** A chunk no bundle names any longer (or a file a stopped bundling left half written) is removed once no command could still want it. */
const STALE_CHUNK_MS = 60_000;

const { outputFiles } = await build({
  entryPoints: [file('dist/src/cli/main.js')],
  outdir: folder,
  // Chunks are named by their content: a command running the previous entry finds its own.
  chunkNames: 'chunk-[hash]',
  entryNames: '[name]',
  bundle: true,
  splitting: true,
  write: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3', 'pg', 'pg-native'],
  // The CommonJS packages inside (Fastify and its own) call require for Node's modules.
  banner: { js: "import { createRequire as createBundleRequire } from 'node:module';\nconst require = createBundleRequire(import.meta.url);" },
  logLevel: 'warning',
});

mkdirSync(folder, { recursive: true });
/** Writes a file whole under another name, then renames it: a command starting meanwhile reads the old one or the new one, never half of one. */
function put(path, contents) {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}
// The entry comes last, so every chunk the entry a command reads names is there.
const entry = join(folder, 'main.js');
for (const output of outputFiles) if (output.path !== entry) put(output.path, output.contents);
put(entry, outputFiles.find((output) => output.path === entry).contents);

const written = new Set(outputFiles.map((output) => basename(output.path)));
for (const name of readdirSync(folder)) {
  const path = join(folder, name);
  // Another bundling at the same moment may have removed it already.
  const modified = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
  if (!written.has(name) && Date.now() - modified > STALE_CHUNK_MS) rmSync(path, { force: true });
}
