/**
 * A field's value as a line of own data gives it, checked against the field's declaration and
 * turned into what the store keeps: times become unix seconds, ref keys become internal ids.
 * Messages name the field and the limit, as write validation does.
 */
import type { FieldDecl } from '../model.js';
import type { FieldPlan } from './plan.js';

/** The internal id a key of a type stands for (the caller has made sure every key is known). */
export type KeyResolver = (type: string, key: string) => number;

const MAX_STRING = 65_536;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Unix seconds of an ISO-8601 time or a number of seconds; undefined when it is neither. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** Keys a field's value names, as [type, key] pairs (refs and lists of refs). */
export function refKeys(field: FieldPlan, value: unknown): Array<[string, string]> {
  if (field.refTo === undefined || value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.filter((item) => typeof item === 'string' || typeof item === 'number').map((item) => [field.refTo!, String(item)]);
}

/** The stored value, or the problem with it. */
export function storedValue(field: FieldPlan, value: unknown, resolve: KeyResolver): { value: unknown } | { problem: string } {
  const list = /^list<(.+)>$/.exec(field.decl.type);
  if (list === null) return scalar(field.name, field.decl, field.decl.type, value, resolve);
  if (!Array.isArray(value)) return { problem: `${field.name} must be a list` };
  if (field.decl.max_items !== undefined && value.length > field.decl.max_items) {
    return { problem: `${field.name} holds ${value.length} items; at most ${field.decl.max_items} are allowed` };
  }
  const stored: unknown[] = [];
  for (const item of value) {
    const checked = scalar(field.name, field.decl, list[1]!, item, resolve);
    if ('problem' in checked) return checked;
    stored.push(checked.value);
  }
  return { value: stored };
}

function scalar(name: string, decl: FieldDecl, type: string, value: unknown, resolve: KeyResolver): { value: unknown } | { problem: string } {
  const ref = /^ref<(\w+)>$/.exec(type);
  if (ref !== null) {
    if (typeof value !== 'string' && typeof value !== 'number') return { problem: `${name} must be the key of a ${ref[1]}` };
    return { value: resolve(ref[1]!, String(value)) };
  }
  switch (type) {
    case 'string':
    case 'url':
    case 'email':
      return text(name, decl, type, value);
    case 'int':
    case 'float': {
      if (typeof value !== 'number' || !Number.isFinite(value) || (type === 'int' && !Number.isSafeInteger(value))) {
        return { problem: `${name} must be ${type === 'int' ? 'a whole number' : 'a number'}` };
      }
      return bounded(name, decl, value, value);
    }
    case 'bool':
      return typeof value === 'boolean' ? { value } : { problem: `${name} must be true or false` };
    case 'datetime': {
      const seconds = parseTime(value);
      if (seconds === undefined) return { problem: `${name} must be an ISO-8601 time or unix seconds` };
      return bounded(name, decl, seconds, seconds);
    }
    case 'date':
      if (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(value))) return { problem: `${name} must be a date as YYYY-MM-DD` };
      if ((decl.min !== undefined && value < String(decl.min)) || (decl.max !== undefined && value > String(decl.max))) {
        return { problem: `${name} must be between ${String(decl.min ?? '…')} and ${String(decl.max ?? '…')}` };
      }
      return { value };
    case 'enum':
      if (typeof value !== 'string' || !(decl.values ?? []).includes(value)) return { problem: `${name} must be one of ${(decl.values ?? []).join(', ')}` };
      return { value };
    case 'json':
      return { value };
    default:
      return { problem: `${name} has the type ${type}, which Loom cannot import` };
  }
}

function text(name: string, decl: FieldDecl, type: string, value: unknown): { value: unknown } | { problem: string } {
  if (typeof value !== 'string') return { problem: `${name} must be a string` };
  const max = decl.max_length ?? MAX_STRING;
  if (value.length > max) return { problem: `${name} is ${value.length} characters long; at most ${max} are allowed` };
  if (decl.min_length !== undefined && value.length < decl.min_length) return { problem: `${name} must be at least ${decl.min_length} characters long` };
  if (decl.pattern !== undefined && !new RegExp(decl.pattern, 'u').test(value)) return { problem: `${name} must match ${decl.pattern}` };
  if (type === 'email' && !EMAIL.test(value)) return { problem: `${name} must be an email address` };
  if (type === 'url' && !URL.canParse(value)) return { problem: `${name} must be an absolute URL` };
  return { value };
}

function bounded(name: string, decl: FieldDecl, compared: number, value: unknown): { value: unknown } | { problem: string } {
  const min = decl.min === undefined ? undefined : Number(parseTime(decl.min) ?? decl.min);
  const max = decl.max === undefined ? undefined : Number(parseTime(decl.max) ?? decl.max);
  if (min !== undefined && compared < min) return { problem: `${name} must be at least ${String(decl.min)}` };
  if (max !== undefined && compared > max) return { problem: `${name} must be at most ${String(decl.max)}` };
  return { value };
}
