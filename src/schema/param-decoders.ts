/**
 * Readers of POST parameters that are not plain text: each takes the parameter's text and gives
 * what is stored, or throws the (#100) error that says what was wrong with it.
 */
import { GraphError } from '../errors.js';

/** A JSON value (`privacy={"value":"SELF"}`), kept as it was sent. */
export function jsonValue(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw GraphError.invalidParameter(`The parameter ${name} must be a JSON object`);
  }
}

/** One line of a link post's `properties`: a label, its text, and where the text links to. */
export interface LinkProperty {
  name?: string;
  text: string;
  href?: string;
}

/** Most lines one link post may show. */
const MAX_LINK_PROPERTIES = 50;

/**
 * A link post's `properties`, as the Graph answers them: a list of `{name, text, href}`. Clients
 * send either that list or an object keyed by the names (koala's `put_wall_post` does), whose
 * values are the text alone or `{text, href}`. An empty list or object stores nothing.
 */
export function linkProperties(text: string, name: string): LinkProperty[] | undefined {
  const value = jsonValue(text, name);
  const wrong = (detail: string) => GraphError.invalidParameter(`The parameter ${name} ${detail}`);
  let entries: [string | undefined, unknown][];
  if (Array.isArray(value)) entries = value.map((entry) => [undefined, entry]);
  else if (value !== null && typeof value === 'object') entries = Object.entries(value);
  else throw wrong('must be a JSON list of {name, text, href} or an object keyed by name');
  if (entries.length > MAX_LINK_PROPERTIES) throw wrong(`holds more than ${MAX_LINK_PROPERTIES} properties`);
  const properties = entries.map(([key, entry]) => linkProperty(key, entry, wrong));
  return properties.length > 0 ? properties : undefined;
}

function linkProperty(key: string | undefined, entry: unknown, wrong: (detail: string) => GraphError): LinkProperty {
  const fields: Record<string, unknown> = typeof entry === 'string' || typeof entry === 'number' ? { text: entry } : isObject(entry) ? entry : {};
  const label = key ?? fields.name;
  const text = fields.text;
  if (typeof text !== 'string' && typeof text !== 'number') throw wrong('has a property without text');
  if (label !== undefined && typeof label !== 'string') throw wrong('has a property whose name is not text');
  const href = fields.href;
  if (href !== undefined && !isWebAddress(href)) throw wrong('has a property whose href is not an http or https address');
  return { ...(label === undefined ? {} : { name: label }), text: String(text), ...(href === undefined ? {} : { href: href as string }) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isWebAddress(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
