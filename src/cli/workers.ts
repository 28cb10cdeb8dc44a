import cluster, { type Worker } from 'node:cluster';

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
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    if (workers.length === 0) process.exit(code);
    for (const worker of workers) worker.process.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code);
    });
  };
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));

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
