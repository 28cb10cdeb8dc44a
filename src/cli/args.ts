import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nearest } from './nearest.js';

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

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/** Options that each take a value (`--name VALUE`), in the order named. */
export function valueOptions<const N extends string>(...names: N[]): Record<N, { type: 'string' }> {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }])) as Record<N, { type: 'string' }>;
}

/** Options that take no value (`--name`, true when given), in the order named. */
export function flagOptions<const N extends string>(...names: N[]): Record<N, { type: 'boolean' }> {
  return Object.fromEntries(names.map((name) => [name, { type: 'boolean' }])) as Record<N, { type: 'boolean' }>;
}

/** `--db PATH|URL`: the database a command works on. */
export const DB_OPTION = valueOptions('db');
/** `--db` and `--json`, for an action that prints what it finds. */
export const DB_JSON_OPTIONS = { ...DB_OPTION, ...flagOptions('json') };

/**
 * The options and arguments of a command, in any order (`app delete --db x.db 5` as well as
 * `app delete 5 --db x.db`); after `--`, everything is an argument. A mistyped option is refused
 * with the command's nearest one.
 */
export function parseCommandArgs<T extends Options>(argv: string[], options: T, { positionals = false } = {}) {
  const known = { ...options, ...HELP };
  for (const token of optionTokens(argv, known)) {
    const option = Object.hasOwn(known, token.name) ? known[token.name] : undefined;
    if (option === undefined) throw unknownOption(token.rawName, Object.keys(known));
    if (option.type === 'string' && token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
    if (option.type === 'string' && !token.inlineValue && token.value?.startsWith('-')) {
      throw new UsageError(`${token.rawName} needs a value; for one that starts with "-", write ${token.rawName}=${token.value}`);
    }
    if (option.type === 'boolean' && token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
  }
  try {
    return parseArgs({ args: argv, options: known, allowPositionals: positionals, strict: true });
  } catch (error) {
    // What is left: an argument to a command that takes none.
    const argument = /^Unexpected argument '(.*)'/.exec((error as Error).message)?.[1];
    throw new UsageError(argument === undefined ? (error as Error).message : `unexpected argument "${argument}"`);
  }
}

/**
 * Splits off the action of a command that has several (`app`, `webhooks`, `ctl`): the first
 * argument that is neither an option nor an option's value, wherever it stands, so
 * `app --db x.db delete 5` reads as `app delete 5 --db x.db`. `actions` lists each action's
 * options, which tell an option's value from an argument.
 */
export function splitAction(argv: string[], actions: Readonly<Record<string, Options>>, noun = 'action'): { action: string | undefined; rest: string[]; help: boolean } {
  const known: Options = Object.assign({}, ...Object.values(actions), HELP) as Options;
  const { tokens } = parseArgs({ args: argv, options: known, strict: false, allowPositionals: true, tokens: true });
  const first = tokens.find((token) => token.kind === 'positional');
  // An unknown option before the action may have taken the action for its value: it is the problem to report.
  const unknown = tokens.find((token) => token.kind === 'option' && !Object.hasOwn(known, token.name) && (first === undefined || token.index < first.index));
  if (unknown?.kind === 'option') throw unknownOption(unknown.rawName, Object.keys(known));
  const help = tokens.some((token) => token.kind === 'option' && token.name === 'help');
  if (first === undefined) return { action: undefined, rest: argv, help };
  const action = first.value;
  if (!Object.hasOwn(actions, action)) {
    const meant = nearest(action, Object.keys(actions));
    throw new UsageError(`unknown ${noun} "${action}"; ${meant ? `did you mean "${meant}"?` : `say ${listed(Object.keys(actions))}`}`, { help: meant === undefined });
  }
  return { action, rest: argv.filter((_, index) => index !== first.index), help };
}

/** An action of a command that has several: the options it takes, and what runs it. */
export interface Action {
  options: Options;
  run: (argv: string[]) => Promise<void>;
}

/** What an action is given: its options' values, and its arguments where it takes some. */
export type ActionArgs<T extends Options> = ReturnType<typeof parseCommandArgs<T>>;

/** An action that takes `options` (and arguments, with `positionals`), run with them parsed. */
export function action<T extends Options>(options: T, run: (args: ActionArgs<T>) => Promise<void>, { positionals = false } = {}): Action {
  return { options, run: async (argv) => run(parseCommandArgs(argv, options, { positionals })) };
}

/**
 * Runs the action `argv` names with the rest of `argv`. `--help`, with an action or without,
 * prints `help`, which covers every action; no action at all is answered with the actions there are.
 */
export async function runAction(argv: string[], actions: Readonly<Record<string, Action>>, help: string): Promise<void> {
  const options = Object.fromEntries(Object.entries(actions).map(([name, action]) => [name, action.options]));
  const { action, rest, help: asked } = splitAction(argv, options);
  if (asked) return void process.stdout.write(help);
  if (action === undefined) throw new UsageError(`say ${listed(Object.keys(actions))}`);
  return actions[action]!.run(rest);
}

/** "a", "b" or "c" */
function listed(names: readonly string[]): string {
  const quoted = names.map((name) => `"${name}"`);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

function optionTokens(argv: string[], options: Options) {
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  return tokens.filter((token) => token.kind === 'option');
}

function unknownOption(rawName: string, names: readonly string[]): UsageError {
  const typed = rawName.replace(/^-+/, '');
  const meant = rawName.startsWith('--') ? nearest(typed, names) : undefined;
  if (meant !== undefined) return new UsageError(`unknown option ${rawName}; did you mean --${meant}?`, { help: false });
  return new UsageError(`unknown option ${rawName}`);
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
