/**
 * Values written to a declared type: parameters arrive as text and leave as stored values (numbers,
 * booleans, unix seconds, JSON), each checked against its field's keywords, then the type's
 * validators from the code module see the whole node. Every refusal is (#100) naming the field
 * and the limit.
 */
import type { ValidateFunction } from 'ajv';
import { GraphError } from '../errors.js';
import { compileJsonSchema } from './json-schema.js';
import type { FieldDecl, StorageKeys, TypeDecl } from './model.js';

/** Longest parameter accepted for any field (a `max_length` may only lower it). */
const PARAM_MAX_LENGTH = 65_536;
/** Items of a list field when it declares no `max_items`. */
const DEFAULT_MAX_ITEMS = 1_000;

export interface FieldKind {
  /** `string`, `int`, … or `ref` for `ref<T>`. */
  base: string;
  list: boolean;
  /** The type a `ref<T>` names. */
  ref?: string;
}

/** A field declared by its `metadata_type` alone holds its value as stored, as `json` does. */
export function fieldKind(type: string | undefined): FieldKind {
  if (type === undefined) return { base: 'json', list: false };
  const list = /^list<(.+)>$/.exec(type);
  const one = list ? list[1]! : type;
  const ref = /^ref<(.+)>$/.exec(one);
  return ref ? { base: 'ref', list: list !== null, ref: ref[1]! } : { base: one, list: list !== null };
}

type Validator = (data: Record<string, unknown>) => string | null | undefined;

/**
 * The type's `checkData`: written values (by field name) to stored data (by storage key). On
 * create (`current` undefined) defaults fill absent fields and `required` and `one_of` apply.
 */
export function dataChecker(
  typeName: string,
  decl: TypeDecl,
  storage: StorageKeys,
  validators: readonly Validator[],
): (changes: Record<string, unknown>, current: Record<string, unknown> | undefined) => Record<string, unknown> {
  const fields = Object.entries(decl.fields ?? {}).filter(([, field]) => field.source === undefined && field.computed === undefined);
  const keyOf = (name: string) => storage.fields[`${typeName}.${name}`]!;
  const jsonChecks = new Map<string, ValidateFunction>();
  for (const [name, field] of fields) if (field.schema) jsonChecks.set(name, compileJsonSchema(field.schema));
  return (changes, current) => {
    const stored: Record<string, unknown> = {};
    const named: Record<string, unknown> = {};
    for (const [name, field] of fields) {
      const fromCurrent = current?.[keyOf(name)];
      if (fromCurrent !== undefined) named[name] = fromCurrent;
      if (!Object.hasOwn(changes, name) || changes[name] === undefined) continue;
      const value = convert(name, field, changes[name]);
      const check = jsonChecks.get(name);
      if (check && !check(value)) throw invalid(`The parameter ${name} does not match its schema: ${check.errors?.[0]?.message ?? 'invalid'}`);
      stored[keyOf(name)] = value;
      named[name] = value;
    }
    if (current === undefined) {
      for (const [name, field] of fields) {
        if (named[name] === undefined && field.default !== undefined) {
          stored[keyOf(name)] = field.default;
          named[name] = field.default;
        }
        if (field.required && named[name] === undefined) throw invalid(`The parameter ${name} is required`);
      }
      if (decl.one_of && !decl.one_of.some((name) => named[name] !== undefined)) {
        throw invalid(`The parameter ${decl.one_of.join(' or ')} is required`);
      }
    }
    for (const validator of validators) {
      const message = validator(named);
      if (typeof message === 'string' && message !== '') throw invalid(message);
    }
    return stored;
  };
}

function invalid(message: string): GraphError {
  return GraphError.invalidParameter(message);
}

/** One written value to its stored form, checked against the field's keywords. */
function convert(name: string, field: FieldDecl, raw: unknown): unknown {
  const kind = fieldKind(field.type);
  if (!kind.list) return convertOne(name, field, kind, raw);
  let items = raw;
  if (typeof raw === 'string') {
    try {
      items = JSON.parse(raw);
    } catch {
      throw invalid(`The parameter ${name} must be a JSON array`);
    }
  }
  if (!Array.isArray(items)) throw invalid(`The parameter ${name} must be a JSON array`);
  const max = field.max_items ?? DEFAULT_MAX_ITEMS;
  if (items.length > max) throw invalid(`The parameter ${name} holds at most ${max} items`);
  return items.map((item) => convertOne(name, field, kind, item));
}

function convertOne(name: string, field: FieldDecl, kind: FieldKind, raw: unknown): unknown {
  switch (kind.base) {
    case 'int':
    case 'float': {
      const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(value) || (kind.base === 'int' && !Number.isSafeInteger(value))) throw invalid(`The parameter ${name} must be ${kind.base === 'int' ? 'an integer' : 'a number'}`);
      inRange(name, field, value);
      return value;
    }
    case 'bool':
      if (raw === true || raw === 'true' || raw === '1') return true;
      if (raw === false || raw === 'false' || raw === '0') return false;
      throw invalid(`The parameter ${name} must be true or false`);
    case 'datetime': {
      const value = typeof raw === 'number' ? raw : /^\d{1,12}$/.test(String(raw)) ? Number(raw) : Math.floor(Date.parse(String(raw)) / 1000);
      if (!Number.isSafeInteger(value)) throw invalid(`The parameter ${name} must be a time (unix seconds or ISO-8601)`);
      inRange(name, field, value, (bound) => (typeof bound === 'string' ? Math.floor(Date.parse(bound) / 1000) : bound));
      return value;
    }
    case 'date': {
      const value = String(raw);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw invalid(`The parameter ${name} must be a date (YYYY-MM-DD)`);
      if (field.min !== undefined && value < String(field.min)) throw invalid(`The parameter ${name} must be on or after ${field.min}`);
      if (field.max !== undefined && value > String(field.max)) throw invalid(`The parameter ${name} must be on or before ${field.max}`);
      return value;
    }
    case 'enum': {
      const value = String(raw);
      if (!field.values?.includes(value)) throw invalid(`The parameter ${name} must be one of ${field.values?.join(', ')}`);
      return value;
    }
    case 'ref': {
      const value = typeof raw === 'number' ? raw : /^\d{1,16}$/.test(String(raw)) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(value)) throw invalid(`The parameter ${name} must be a node id`);
      return value;
    }
    case 'json': {
      if (typeof raw !== 'string') return raw;
      try {
        return JSON.parse(raw);
      } catch {
        throw invalid(`The parameter ${name} must be JSON`);
      }
    }
    default:
      return checkText(name, field, kind.base, String(raw));
  }
}

function checkText(name: string, field: FieldDecl, base: string, value: string): string {
  if (field.min_length !== undefined && value.length < field.min_length) throw invalid(`The parameter ${name} must be at least ${field.min_length} characters`);
  const max = Math.min(field.max_length ?? PARAM_MAX_LENGTH, PARAM_MAX_LENGTH);
  if (value.length > max) throw invalid(`The parameter ${name} is longer than ${max} characters`);
  if (field.pattern !== undefined && !new RegExp(field.pattern, 'u').test(value)) throw invalid(`The parameter ${name} must match ${field.pattern}`);
  if (base === 'url' && !/^https?:\/\/[^\s/]+/.test(value)) throw invalid(`The parameter ${name} must be an http(s) URL`);
  if (base === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw invalid(`The parameter ${name} must be an email address`);
  return value;
}

function inRange(name: string, field: FieldDecl, value: number, bound: (b: number | string) => number = Number): void {
  if (field.min !== undefined && value < bound(field.min)) throw invalid(`The parameter ${name} must be at least ${field.min}`);
  if (field.max !== undefined && value > bound(field.max)) throw invalid(`The parameter ${name} must be at most ${field.max}`);
}

/** The longest text accepted for a field's parameter. */
export function paramLength(decl: FieldDecl): number {
  const kind = fieldKind(decl.type);
  // A field typed by `metadata_type` alone is Graph text whose length is what `max_length` says.
  if (kind.base === 'string' || kind.base === 'url' || kind.base === 'email' || decl.type === undefined) {
    if (!kind.list) return Math.min(decl.max_length ?? PARAM_MAX_LENGTH, PARAM_MAX_LENGTH);
  }
  return PARAM_MAX_LENGTH;
}
