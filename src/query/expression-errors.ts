import { GraphError } from '../errors.js';

/**
 * Longest expression echoed back in a syntax error: the message reaches clients and logs, and a
 * megabyte-long expression should not travel back whole.
 */
const ECHO_LIMIT = 200;

/** `(#100) Syntax error "<fault>" at character <N>: <expression>`, N being a 0-based offset. */
export function syntaxError(fault: string, position: number, expression: string): GraphError {
  const echo = expression.length > ECHO_LIMIT ? `${expression.slice(0, ECHO_LIMIT)}...` : expression;
  return GraphError.invalidParameter(`Syntax error "${fault}" at character ${position}: ${echo}`);
}

export function nestingTooDeep(maxDepth: number): GraphError {
  return GraphError.invalidParameter(`Field expression nests more than ${maxDepth} levels`);
}

/** How a fault names what it found: the character in quotes, or the end of the text. */
export function describeFound(character: string | undefined): string {
  return character === undefined ? 'end of string' : `"${character}"`;
}
