import { closeSync, openSync, writeSync } from 'node:fs';
import type { DataLineError } from '../declared/data/lines.js';
import { describeSystemError } from '../errors.js';
import { UsageError } from './args.js';

/**
 * The report of `loom import --skip-invalid`: one NDJSON line per line left out, with its file,
 * number and reason, written as they are found so a long import holds none of them in memory.
 */
export class RejectedLines {
  count = 0;
  private readonly fd: number;

  /** Starts the report afresh, so it never lists the lines of an earlier import. */
  constructor(readonly path: string) {
    try {
      this.fd = openSync(path, 'w');
    } catch (error) {
      throw new UsageError(`cannot write the report ${path}: ${describeSystemError(error)}`, { help: false });
    }
  }

  readonly add = (problem: DataLineError): void => {
    this.count += 1;
    writeSync(this.fd, `${JSON.stringify({ file: problem.source, line: problem.line, reason: problem.problem })}\n`);
  };

  close(): void {
    closeSync(this.fd);
  }
}

/** Where the report goes unless --report says: beside the first file imported. */
export function defaultReportPath(firstFile: string): string {
  return `${firstFile}.rejected.ndjson`;
}
