/**
 * Run as a process of its own by the benchmark: prints the milliseconds `startLoom({ demo: true })`
 * takes until the server answers, as a fresh test process sees it (its modules already loaded).
 */
import { startLoom } from '../src/testing/index.js';

const start = performance.now();
const loom = await startLoom({ demo: true });
const ms = performance.now() - start;
await loom.close();
process.stdout.write(`${ms}\n`);
