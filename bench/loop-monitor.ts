/**
 * Loaded into the served Loom process by the fairness benchmark (`node --import`): it measures
 * how long the event loop was held at a stretch, which is what a cheap request waits behind.
 * SIGUSR2 writes the longest delay and the 99th percentile since the last signal, in
 * milliseconds, as one JSON line to the file LOOM_LOOP_REPORT names, then starts afresh.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const report = process.env.LOOM_LOOP_REPORT;
if (report) {
  const delays = monitorEventLoopDelay({ resolution: 1 });
  delays.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    appendFileSync(report, `${JSON.stringify({ maxMs: ms(delays.max), p99Ms: ms(delays.percentile(99)), meanMs: ms(delays.mean) })}\n`);
    delays.reset();
  });
}
