import { JSONPath } from 'jsonpath-plus';
import { GraphError } from '../errors.js';

/** `{result=<name>:<JSONPath>}` inside an operation's `relative_url` or `body`. */
const REFERENCE = /\{result=([^:{}]+):([^{}]*)\}/g;
const WHOLE_REFERENCE = /^\{result=[^:{}]+:[^{}]*\}$/;

/**
 * A reference as a client may have written it into a URL or form body: any of its characters
 * percent-encoded (koala encodes every query value: `%7Bresult%3Dfriends%3A%24.data.%2A.id%7D`),
 * and then spaces as `+`. The real service decoded the URL before it looked for references. Its
 * middle holds no brace, plain or encoded, so each scan stops where another could start: the
 * search is linear in the text.
 */
const WRITTEN_REFERENCE = /(?:\{|%7B)result(?:=|%3D)(?:[^{}%]|%(?!7B|7D)[0-9A-F]{2})*(?:\}|%7D)/gi;

/** The text with each encoded reference decoded into the plain form; everything else stays as written. */
function plainReferences(text: string): string {
  return text.replace(WRITTEN_REFERENCE, (written) => {
    if (!written.includes('%')) return written;
    const decoded = formDecoded(written);
    return decoded !== undefined && WHOLE_REFERENCE.test(decoded) ? decoded : written;
  });
}

/** Percent-escapes that are no UTF-8 (`%C3` alone) leave the text as written. */
function formDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The names of earlier operations that a text refers to. */
export function referencedNames(text: string): string[] {
  return [...plainReferences(text).matchAll(REFERENCE)].map((match) => match[1]!);
}

/**
 * Replaces each reference with what its JSONPath selects in the named operation's answer:
 * `$.id` gives one value, `$.data.*.id` every match joined with commas. Values are
 * percent-encoded, so they stay one parameter in a query string or form body.
 */
export function substituteReferences(text: string, answers: ReadonlyMap<string, unknown>): string {
  return plainReferences(text).replace(REFERENCE, (_whole, name: string, path: string) => {
    const matches = evaluate(path, answers.get(name));
    return matches.map((value) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))).join(',');
  });
}

function evaluate(path: string, json: unknown): unknown[] {
  if (json === null || typeof json !== 'object') return [];
  try {
    // Script and filter expressions are never evaluated: a path only walks the answer.
    return JSONPath<unknown[]>({ path, json, eval: false, wrap: true });
  } catch {
    throw GraphError.invalidParameter(`The JSONPath expression ${path.slice(0, 100)} could not be read`);
  }
}
