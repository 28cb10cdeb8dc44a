import cluster, { type Worker } from 'node:cluster';

/** How long the workers may take to finish their requests and exit once asked to stop. */
const STOP_TIMEOUT_MS = 10_000;

/**
 * Runs `count` copies of the current command as node:cluster workers, which share the port
 * they listen on; the primary only watches them. Resolves once every worker listens. A worker
 * that dies after it served is replaced; one that dies before it ever listened stops them all,
 * since its replacements would only fail the same way. SIGINT or SIGTERM stops the workers
 * and then the primary.
 */
export function startWorkers(count: number): Promise<void> {
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    // Counted here rather than read from cluster.workers, which still lists a worker at its
    // 'exit' when its channel closes only afterwards, and lists dead ones until then too.
    const running = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && !worker.isDead());
    let left = running.length;
    if (left === 0) process.exit(code);
    for (const worker of running) {
      worker.once('exit', () => {
        left -= 1;
        if (left === 0) process.exit(code);
      });
      worker.process.kill('SIGTERM');
    }
    // A worker stuck in its shutdown must not keep the primary from ending.
    setTimeout(() => {
      for (const worker of running) if (!worker.isDead()) worker.process.kill('SIGKILL');
      process.exit(code);
    }, STOP_TIMEOUT_MS).unref();
  };
  // Listening on, so a second signal (npm forwards the terminal's) never cuts the stop short.
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));

  return new Promise((resolve, reject) => {
    let started = 0;
    const fork = () => {
      const worker = cluster.fork();
      let listened = false;
      worker.once('listening', () => {
        listened = true;
        started += 1;
        if (started === count) resolve();
      });
      worker.once('exit', (code, signal) => {
        if (stopping) return;
        const how = signal ?? `code ${code}`;
        if (!listened) {
          reject(new Error(`a worker exited (${how}) before it could serve; see its output above`));
          stop(1);
          return;
        }
        process.stderr.write(`loom: worker ${worker.process.pid} exited (${how}); starting another\n`);
        fork();
      });
    };
    for (let i = 0; i < count; i += 1) fork();
  });
}
