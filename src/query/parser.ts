import { describeFound, nestingTooDeep, syntaxError } from './expression-errors.js';
import { ExpressionScanner } from './scanner.js';
import type { Selection } from './selection.js';

export interface ParseFieldsOptions {
  /** Deepest nesting of `{...}` / `.fields(...)` accepted; the top-level list is depth 0. */
  maxDepth?: number;
}

export const DEFAULT_MAX_DEPTH = 256;

/**
 * An open sub-selection: `{` or `.fields(` that has not been closed yet. Groups live on an
 * explicit stack rather than the call stack, so hostile nesting cannot overflow it.
 */
interface Group {
  /** The selection the group belongs to; undefined for the top-level list. */
  owner: Selection | undefined;
  /** Where the group's items go: the owner's children, shared by braces and `.fields()` alike. */
  items: Selection[];
  /** The character that closes the group; undefined for the top-level list, closed by the end. */
  closer: '}' | ')' | undefined;
  /** How many items the owner had before this group opened, to tell whether it added any. */
  itemsBefore: number;
}

/**
 * Parses the value of a `fields` parameter into selections. Any malformed expression is a
 * (#100) GraphError naming the fault and its offset.
 */
export function parseFields(text: string, options: ParseFieldsOptions = {}): Selection[] {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!(maxDepth >= 0)) throw new RangeError(`maxDepth must be a non-negative number, got ${maxDepth}`);

  const scanner = new ExpressionScanner(text);
  const fail = (fault: string, position = scanner.position) => syntaxError(fault, position, text);
  const topLevel: Selection[] = [];
  const groups: Group[] = [{ owner: undefined, items: topLevel, closer: undefined, itemsBefore: 0 }];

  const open = (owner: Selection, closer: '}' | ')') => {
    if (groups.length > maxDepth) throw nestingTooDeep(maxDepth);
    owner.children ??= [];
    groups.push({ owner, items: owner.children, closer, itemsBefore: owner.children.length });
  };

  /** A character that cannot stand where it was found. */
  const misplaced = (character: string | undefined, group: Group) => {
    if (group.closer !== undefined && (character === undefined || character === '}' || character === ')')) {
      return fail(`Expected "${group.closer}" instead of ${describeFound(character)}`);
    }
    return fail(`Unexpected ${describeFound(character)}`);
  };

  /**
   * Reads `name(` after a dot, then a modifier's raw argument up to `)`. Returns true for
   * `.fields(`, whose list the caller parses as a group.
   */
  const readMethod = (selection: Selection): boolean => {
    const method = scanner.readWord();
    if (method === '') {
      const next = scanner.peek();
      throw fail(next === '(' ? 'Expected a modifier name' : `Expected a name instead of ${describeFound(next)}`);
    }
    scanner.skipWhitespace();
    if (scanner.peek() !== '(') throw fail(`Expected "(" instead of ${describeFound(scanner.peek())}`);
    scanner.advance();
    if (method === 'fields') return true;
    const argument = scanner.readUntil(')');
    if (argument === undefined) throw fail('Expected ")" instead of end of string', text.length);
    setModifier(selection, method, argument.trim());
    return false;
  };

  // The selection whose modifiers and sub-selections are being read; undefined between items.
  let current: Selection | undefined;

  for (;;) {
    scanner.skipWhitespace();
    const group = groups[groups.length - 1];
    const character = scanner.peek();

    if (current === undefined) {
      if (character === ',') {
        scanner.advance();
        continue;
      }
      if (character === group.closer) {
        if (group.owner === undefined) return topLevel;
        if (group.items.length === group.itemsBefore) throw fail('Expected a field name');
        scanner.advance();
        groups.pop();
        current = group.owner;
        continue;
      }
      const position = scanner.position;
      const name = scanner.readName();
      if (name === '') throw misplaced(character, group);
      current = { name, modifiers: {}, position };
      group.items.push(current);
      continue;
    }

    if (character === ',') {
      scanner.advance();
      current = undefined;
    } else if (character === group.closer) {
      current = undefined;
    } else if (character === '{') {
      scanner.advance();
      open(current, '}');
      current = undefined;
    } else if (character === '.') {
      scanner.advance();
      if (readMethod(current)) {
        open(current, ')');
        current = undefined;
      }
    } else {
      throw misplaced(character, group);
    }
  }
}

/** Defined rather than assigned, so a modifier called `__proto__` stays an ordinary entry. */
function setModifier(selection: Selection, name: string, value: string): void {
  Object.defineProperty(selection.modifiers, name, { value, enumerable: true, writable: true, configurable: true });
}
