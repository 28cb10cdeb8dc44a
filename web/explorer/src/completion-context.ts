/**
 * Where the caret of the path box stands, for completion: on the node, on an edge of the path, on
 * a parameter name, or inside a `fields` expression (at some nesting depth, on a name or on a
 * modifier). Pure: it reads text only; what the names are comes from the node's metadata.
 */

/** Text to replace when a suggestion is accepted: `[from, to)` of the path box. */
export interface Span {
  from: number;
  to: number;
  /** What is typed already; suggestions start with it. */
  prefix: string;
}

export type CompletionContext =
  | (Span & { kind: 'node' })
  | (Span & { kind: 'edge'; node: string })
  | (Span & { kind: 'param' })
  /** A field or edge name of the items at `edges` below `node` (no edges: the node itself). */
  | (Span & { kind: 'field'; node: string; edges: string[] })
  /**
   * A modifier of `owner` (`likes.li|`). `dotted` is the same text read as one dotted name
   * (`payment.sub|`), which a few edges have.
   */
  | (Span & { kind: 'modifier'; node: string; edges: string[]; owner: string; dotted?: Span });

const VERSION = /^v\d+\.\d+$/;
const WORD = /[A-Za-z0-9_]/;

export function completionContext(text: string, caret: number): CompletionContext | undefined {
  const before = text.slice(0, caret);
  const wordEnd = caret + (/^[A-Za-z0-9_]*/.exec(text.slice(caret))?.[0].length ?? 0);
  const queryStart = before.indexOf('?');
  const segments = pathSegments(queryStart === -1 ? before : before.slice(0, queryStart));

  if (queryStart === -1) {
    const prefix = segments[segments.length - 1] ?? '';
    const span = { from: caret - prefix.length, to: wordEnd, prefix };
    if (segments.length <= 1) return { kind: 'node', ...span };
    if (segments.length === 2) return { kind: 'edge', node: segments[0]!, ...span };
    return undefined;
  }

  const [node, pathEdge, ...rest] = segments;
  if (!node || rest.length > 0) return undefined;
  const param = before.slice(Math.max(before.lastIndexOf('&'), queryStart) + 1);
  if (!param.includes('=')) {
    return /^\w*$/.test(param) ? { kind: 'param', from: caret - param.length, to: wordEnd, prefix: param } : undefined;
  }
  if (!param.startsWith('fields=')) return undefined;
  const value = param.slice('fields='.length);
  const inner = fieldsContext(value);
  if (!inner) return undefined;
  const offset = caret - value.length;
  const edges = [...(pathEdge ? [pathEdge] : []), ...inner.levels];
  const shift = (span: Span): Span => ({ from: span.from + offset, to: wordEnd, prefix: span.prefix });
  if (inner.kind === 'field') return { kind: 'field', node, edges, ...shift(inner.span) };
  return {
    kind: 'modifier',
    node,
    edges,
    owner: inner.owner,
    ...shift(inner.span),
    ...(inner.dotted ? { dotted: shift(inner.dotted) } : {}),
  };
}

/** `/v2.4/me/feed` → `['me', 'feed']`; the trailing segment may be empty (`me/`). */
function pathSegments(path: string): string[] {
  const segments = path.replace(/^\/+/, '').split('/');
  if (segments.length > 1 && VERSION.test(segments[0]!)) segments.shift();
  return segments;
}

type FieldsContext =
  | { kind: 'field'; levels: string[]; span: Span }
  | { kind: 'modifier'; levels: string[]; owner: string; span: Span; dotted?: Span };

interface Level {
  owner: string;
  closer: '}' | ')';
}

/**
 * Reads a `fields` value that ends at the caret, tolerating that it is unfinished. Returns
 * undefined where nothing can be suggested: inside a modifier's argument, or after a mistake.
 */
function fieldsContext(value: string): FieldsContext | undefined {
  const stack: Level[] = [];
  const levels = () => stack.map((level) => level.owner);
  // The item whose modifiers or sub-selection may follow; undefined between items.
  let current: string | undefined;
  let at = 0;
  const end = value.length;
  const skipSpace = () => {
    while (at < end && /\s/.test(value[at]!)) at++;
  };
  const readWord = () => {
    const start = at;
    while (at < end && WORD.test(value[at]!)) at++;
    return value.slice(start, at);
  };

  for (;;) {
    skipSpace();
    if (at >= end) break;
    const character = value[at]!;
    const top = stack[stack.length - 1];
    if (current === undefined) {
      if (character === ',') {
        at++;
      } else if (top && character === top.closer) {
        stack.pop();
        current = top.owner;
        at++;
      } else if (WORD.test(character)) {
        const start = at;
        const name = readDottedName();
        if (at >= end) {
          const dot = name.lastIndexOf('.');
          const whole = { from: start, to: end, prefix: name };
          if (dot === -1) return { kind: 'field', levels: levels(), span: whole };
          const modifier = name.slice(dot + 1);
          return { kind: 'modifier', levels: levels(), owner: name.slice(0, dot), span: { from: end - modifier.length, to: end, prefix: modifier }, dotted: whole };
        }
        current = name;
      } else {
        return undefined;
      }
      continue;
    }
    if (character === ',') {
      current = undefined;
      at++;
    } else if (top && character === top.closer) {
      current = undefined;
    } else if (character === '{') {
      stack.push({ owner: current, closer: '}' });
      current = undefined;
      at++;
    } else if (character === '.') {
      at++;
      const modifier = readWord();
      if (at >= end) return { kind: 'modifier', levels: levels(), owner: current, span: { from: end - modifier.length, to: end, prefix: modifier } };
      skipSpace();
      if (value[at] !== '(' || modifier === '') return undefined;
      at++;
      if (modifier === 'fields') {
        stack.push({ owner: current, closer: ')' });
        current = undefined;
      } else {
        const close = value.indexOf(')', at);
        if (close === -1) return undefined;
        at = close + 1;
      }
    } else {
      return undefined;
    }
  }
  return current === undefined ? { kind: 'field', levels: levels(), span: { from: end, to: end, prefix: '' } } : undefined;

  /** A name, dots included unless `(` follows the dotted word (then it is a modifier), as the server reads names. */
  function readDottedName(): string {
    const start = at;
    readWord();
    while (at < end && value[at] === '.') {
      const dot = at;
      at++;
      readWord();
      let next = at;
      while (next < end && /\s/.test(value[next]!)) next++;
      if (at === dot + 1 || value[next] === '(') {
        at = dot;
        break;
      }
    }
    return value.slice(start, at);
  }
}
