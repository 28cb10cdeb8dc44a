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
  const parser = new FieldsParser(text, options);
  parser.parse(Infinity);
  return parser.selections;
}

/**
 * A parse that can be done a bounded number of steps at a time, so that whoever drives it may
 * let other work in between: a `fields` text of thousands of aliased edges takes milliseconds.
 */
export class FieldsParser {
  /** The top-level list: complete once `parse` has answered true. */
  readonly selections: Selection[] = [];
  private readonly maxDepth: number;
  private readonly scanner: ExpressionScanner;
  private readonly groups: Group[];
  /** The selection whose modifiers and sub-selections are being read; undefined between items. */
  private current: Selection | undefined;
  private done = false;

  constructor(
    private readonly text: string,
    options: ParseFieldsOptions = {},
  ) {
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    if (!(this.maxDepth >= 0)) throw new RangeError(`maxDepth must be a non-negative number, got ${this.maxDepth}`);
    this.scanner = new ExpressionScanner(text);
    this.groups = [{ owner: undefined, items: this.selections, closer: undefined, itemsBefore: 0 }];
  }

  /** Reads at most `steps` more tokens; true once the whole text is parsed. */
  parse(steps: number): boolean {
    for (let step = 0; !this.done && step < steps; step++) this.step();
    return this.done;
  }

  private step(): void {
    const { scanner, groups } = this;
    scanner.skipWhitespace();
    const group = groups[groups.length - 1]!;
    const character = scanner.peek();
    const current = this.current;

    if (current === undefined) {
      if (character === ',') {
        scanner.advance();
        return;
      }
      if (character === group.closer) {
        if (group.owner === undefined) {
          this.done = true;
          return;
        }
        if (group.items.length === group.itemsBefore) throw this.fail('Expected a field name');
        scanner.advance();
        groups.pop();
        this.current = group.owner;
        return;
      }
      const position = scanner.position;
      const name = scanner.readName();
      if (name === '') throw this.misplaced(character, group);
      this.current = { name, modifiers: {}, position };
      group.items.push(this.current);
      return;
    }

    if (character === ',') {
      scanner.advance();
      this.current = undefined;
    } else if (character === group.closer) {
      this.current = undefined;
    } else if (character === '{') {
      scanner.advance();
      this.open(current, '}');
      this.current = undefined;
    } else if (character === '.') {
      scanner.advance();
      if (this.readMethod(current)) {
        this.open(current, ')');
        this.current = undefined;
      }
    } else {
      throw this.misplaced(character, group);
    }
  }

  private fail(fault: string, position = this.scanner.position) {
    return syntaxError(fault, position, this.text);
  }

  private open(owner: Selection, closer: '}' | ')'): void {
    if (this.groups.length > this.maxDepth) throw nestingTooDeep(this.maxDepth);
    owner.children ??= [];
    this.groups.push({ owner, items: owner.children, closer, itemsBefore: owner.children.length });
  }

  /** A character that cannot stand where it was found. */
  private misplaced(character: string | undefined, group: Group) {
    if (group.closer !== undefined && (character === undefined || character === '}' || character === ')')) {
      return this.fail(`Expected "${group.closer}" instead of ${describeFound(character)}`);
    }
    return this.fail(`Unexpected ${describeFound(character)}`);
  }

  /**
   * Reads `name(` after a dot, then a modifier's raw argument up to `)`. Returns true for
   * `.fields(`, whose list the caller parses as a group.
   */
  private readMethod(selection: Selection): boolean {
    const { scanner } = this;
    const method = scanner.readWord();
    if (method === '') {
      const next = scanner.peek();
      throw this.fail(next === '(' ? 'Expected a modifier name' : `Expected a name instead of ${describeFound(next)}`);
    }
    scanner.skipWhitespace();
    if (scanner.peek() !== '(') throw this.fail(`Expected "(" instead of ${describeFound(scanner.peek())}`);
    scanner.advance();
    if (method === 'fields') return true;
    const argument = scanner.readUntil(')');
    if (argument === undefined) throw this.fail('Expected ")" instead of end of string', this.text.length);
    setModifier(selection, method, argument.trim());
    return false;
  }
}

/** Defined rather than assigned, so a modifier called `__proto__` stays an ordinary entry. */
function setModifier(selection: Selection, name: string, value: string): void {
  Object.defineProperty(selection.modifiers, name, { value, enumerable: true, writable: true, configurable: true });
}
