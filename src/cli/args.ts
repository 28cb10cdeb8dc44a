import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * A command-line failure the user can fix; main prints it, with the command's usage unless
 * the usage would not help (a busy port, say).
 */
export class UsageError extends Error {
  readonly showUsage: boolean;
  /** 2 for a command given wrongly; 1 for one that ran and found problems in what it was given. */
  readonly exitCode: number;

  constructor(message: string, { help = true, exitCode = 2 }: { help?: boolean; exitCode?: number } = {}) {
    super(message);
    this.showUsage = help;
    this.exitCode = exitCode;
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<T extends Options>(argv: string[], options: T, { positionals = false } = {}) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: positionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  return positiveIntegerFrom({ [`--${name}`]: value }, fallback);
}

/**
 * The first value of `sources` that is set, as a positive whole number up to `max`; `fallback`
 * when none is. Sources are named as the user gives them (`--port`, `PORT`), so a bad value
 * names its origin.
 */
export function positiveIntegerFrom(sources: Readonly<Record<string, string | undefined>>, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  for (const [name, value] of Object.entries(sources)) {
    if (value === undefined) continue;
    if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
      throw new UsageError(`${name} must be a positive whole number, not "${value}"`);
    }
    if (Number(value) > max) throw new UsageError(`${name} must be at most ${max}, not ${value}`);
    return Number(value);
  }
  return fallback;
}
