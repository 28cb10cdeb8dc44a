// `npm start`: brings the build up to date, then serves (arguments after `npm start --` go to
// `loom serve`). The build is tsc's own up-to-date check, as `npm run build` does it: when no
// source changed since the last build it ends in a fraction of a second without compiling.
//
// The build and the server run as children of this process and stop with it. npm passes a
// SIGINT or SIGTERM on to its script's process only, so each one is passed on here in turn:
// stopping `npm start` from a process manager, a test or another program's signal leaves no
// server behind, and a signal during the build starts no server.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

let current;
let stoppedBy;
for (const signal of SIGNALS) {
  process.on(signal, () => {
    stoppedBy ??= signal;
    current?.kill(signal);
  });
}

/** Runs `file` with `args` in the project's folder, its output this process's own. */
function run(file, args) {
  return new Promise((resolve) => {
    current = spawn(file, args, { cwd: root, stdio: 'inherit' });
    current.once('exit', (code, signal) => {
      current = undefined;
      resolve({ code, signal });
    });
  });
}

/** Ends as the child ended: with its status, or by the signal that ended it. */
function endAs({ code, signal }) {
  if (signal === null) process.exit(code ?? 1);
  for (const name of SIGNALS) process.removeAllListeners(name);
  process.kill(process.pid, signal);
}

const built = await run(process.execPath, [tsc, '-b', '.', 'web/explorer']);
if (stoppedBy !== undefined) endAs({ code: null, signal: stoppedBy });
else if (built.code !== 0 || built.signal !== null) endAs(built);
// bin/loom itself, not node with it: its first line carries the server's V8 settings.
else endAs(await run('bin/loom', ['serve', ...process.argv.slice(2)]));
