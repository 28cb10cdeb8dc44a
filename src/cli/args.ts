import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command-line failure the user can fix; main prints it with the command's usage. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: false, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be a positive whole number, not "${value}"`);
  }
  return Number(value);
}
