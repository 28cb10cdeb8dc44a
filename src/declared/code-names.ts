/**
 * Behaviours stay in code; a declaration names them. Each name is looked up in the table of the
 * code module its key expects, so a missing name, or a name of the wrong kind (a computed field
 * given as a POST behaviour), is a problem of that key found at start rather than an odd answer.
 */
import type { CodeModule } from './model.js';

/** The tables of a code module, by the word its problems use for their entries. */
const KINDS = {
  computed: 'computed field',
  validators: 'validator',
  visibilities: 'visibility',
  behaviors: 'edge behaviour',
  posts: 'POST behaviour',
  checks: 'check',
} as const;

export type CodeTable = keyof typeof KINDS;

type Entry<T extends CodeTable> = NonNullable<CodeModule[T]>[string];

/**
 * The entry `name` of `table`, or undefined after reporting at `at` what is wrong: no such name,
 * or a name that the module holds under another table.
 */
export function codeEntry<T extends CodeTable>(
  code: CodeModule | undefined,
  table: T,
  name: string,
  at: string,
  problem: (key: string, message: string) => void,
): Entry<T> | undefined {
  const tableOf = code?.[table] as Record<string, unknown> | undefined;
  if (tableOf && Object.hasOwn(tableOf, name) && tableOf[name] !== undefined) return tableOf[name] as Entry<T>;
  if (code === undefined) {
    problem(at, `names the ${KINDS[table]} "${name}", but the declaration has no code module`);
    return undefined;
  }
  const other = (Object.keys(KINDS) as CodeTable[]).find((kind) => kind !== table && Object.hasOwn((code[kind] ?? {}) as object, name));
  problem(at, other ? `"${name}" is a ${KINDS[other]} of the code module, not a ${KINDS[table]}` : `the code module has no ${KINDS[table]} "${name}"`);
  return undefined;
}
