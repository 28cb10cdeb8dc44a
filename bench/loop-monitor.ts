/**
 * Loaded into the served Loom process by the fairness benchmark (`node --import`): it measures
 * how long the event loop was held at a stretch, which is what a cheap request waits behind.
 * Two measures, since a shared machine also stops the process itself now and then: the delays
 * of a 1 ms timer (wall clock, what a client feels), and the processor time the process used
 * between two runs of a 1 ms timer (what Loom's own work held the loop for, however busy the
 * machine; it counts the garbage collector's helper threads too, so it errs long), and the
 * longest pause of the garbage collector, which no code of Loom's can split.
 * SIGUSR2 writes both since the last signal, in milliseconds, as one JSON line to the file
 * LOOM_LOOP_REPORT names, then starts afresh.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const report = process.env.LOOM_LOOP_REPORT;
if (report) {
  const delays = monitorEventLoopDelay({ resolution: 1 });
  delays.enable();
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let lastCpu = cpuMs();
  let longestCpu = 0;
  setInterval(() => {
    const now = cpuMs();
    longestCpu = Math.max(longestCpu, now - lastCpu);
    lastCpu = now;
  }, 1).unref();
  let longestGc = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longestGc = Math.max(longestGc, entry.duration);
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const round = (value: number) => Math.round(value * 100) / 100;
    const line = { maxMs: ms(delays.max), p99Ms: ms(delays.percentile(99)), meanMs: ms(delays.mean), longestCpuMs: round(longestCpu), longestGcMs: round(longestGc) };
    appendFileSync(report, `${JSON.stringify(line)}\n`);
    delays.reset();
    longestCpu = 0;
    longestGc = 0;
  });
}
