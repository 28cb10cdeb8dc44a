import { JSONPath } from 'jsonpath-plus';
import { GraphError } from '../errors.js';

/** `{result=<name>:<JSONPath>}` inside an operation's `relative_url` or `body`. */
const REFERENCE = /\{result=([^:{}]+):([^{}]*)\}/g;

/** The names of earlier operations that a text refers to. */
export function referencedNames(text: string): string[] {
  return [...text.matchAll(REFERENCE)].map((match) => match[1]!);
}

/**
 * Replaces each reference with what its JSONPath selects in the named operation's answer:
 * `$.id` gives one value, `$.data.*.id` every match joined with commas. Values are
 * percent-encoded, so they stay one parameter in a query string or form body.
 */
export function substituteReferences(text: string, answers: ReadonlyMap<string, unknown>): string {
  return text.replace(REFERENCE, (_whole, name: string, path: string) => {
    const matches = evaluate(path, answers.get(name));
    return matches.map((value) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))).join(',');
  });
}

function evaluate(path: string, json: unknown): unknown[] {
  if (json === null || typeof json !== 'object') return [];
  try {
    // Script and filter expressions are never evaluated: a path only walks the answer.
    return JSONPath({ path, json, eval: false, wrap: true }) as unknown[];
  } catch {
    throw GraphError.invalidParameter(`The JSONPath expression ${path.slice(0, 100)} could not be read`);
  }
}
