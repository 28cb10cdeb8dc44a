/**
 * Reads a declaration file (YAML 1.2, or JSON) and the files it includes, checks each against
 * `loom-schema.json`, and merges them into one Declaration. Every problem names the file, the line
 * and the key, so a mistake is found in the editor rather than by a puzzling answer later.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Document, LineCounter, Node as YamlNode } from 'yaml';
import type * as YamlModule from 'yaml';
import { compileJsonSchema } from './json-schema.js';
import type { Declaration, LoadedDeclaration } from './model.js';
import { describeSystemError } from '../errors.js';

export interface DeclarationProblem {
  file: string;
  /** 1-based; 0 when the problem is not tied to a line. */
  line: number;
  /** Dotted path of the key (`types.review.fields.rating.max`); empty for the whole file. */
  key: string;
  message: string;
}

/** A declaration Loom refuses: every problem found, each with its file, line and key. */
export class DeclarationError extends Error {
  readonly problems: DeclarationProblem[];
  constructor(problems: DeclarationProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'DeclarationError';
    this.problems = problems;
  }
}

function formatProblem(problem: DeclarationProblem): string {
  const where = problem.line > 0 ? `${problem.file}:${problem.line}` : problem.file;
  return `${where}: ${problem.key === '' ? '' : `${problem.key}: `}${problem.message}`;
}

/** Files a declaration may pull in, directly and through its includes. */
const MAX_FILES = 64;

/** The sections whose entries included files add to the main file's, each name declared in one file only. */
const MERGED = ['types', 'permissions', 'permission_groups'];

// The YAML parser is loaded when a file is first read, as the JSON Schema checker is: a process
// whose declarations all come from a cache (load-cache.ts) starts without them (~140 modules).
const require = createRequire(import.meta.url);
let yamlModule: typeof YamlModule | undefined;
const yaml = (): typeof YamlModule => (yamlModule ??= require('yaml') as typeof YamlModule);

/** `loom-schema.json`, shipped beside the package: what every declaration file must match. */
export const DECLARATION_SCHEMA = new URL('../../../loom-schema.json', import.meta.url);

/** The checker of `loom-schema.json`, compiled when a file is first checked. */
let fileValidator: ValidateFunction | undefined;
function validateFile(): ValidateFunction {
  if (fileValidator === undefined) {
    const schema = JSON.parse(readFileSync(DECLARATION_SCHEMA, 'utf8')) as object;
    fileValidator = compileJsonSchema(schema, { allErrors: true });
  }
  return fileValidator;
}

interface ParsedFile {
  file: string;
  text: string;
  value: Record<string, unknown>;
  lineOf(path: readonly (string | number)[]): number;
}

/**
 * Reads and checks the file and its includes; throws DeclarationError listing every problem.
 * Synchronous: the built-in Graph declaration is read while the first Schema is made, before
 * anything is served, and declaration files are small.
 */
export function loadDeclaration(path: string): LoadedDeclaration {
  const main = resolve(path);
  const files: ParsedFile[] = [];
  const problems: DeclarationProblem[] = [];
  const queue = [main];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (seen.size > MAX_FILES) {
      problems.push({ file: main, line: 0, key: 'include', message: `at most ${MAX_FILES} files may be included` });
      break;
    }
    const parsed = parseFile(file, problems);
    if (!parsed) continue;
    files.push(parsed);
    checkShape(parsed, files.length === 1, problems);
    const include = parsed.value.include;
    if (Array.isArray(include)) {
      for (const entry of include) if (typeof entry === 'string') queue.push(resolve(dirname(file), entry));
    }
  }
  if (problems.length > 0) throw new DeclarationError(problems);
  const declaration = merge(files, problems);
  if (problems.length > 0) throw new DeclarationError(problems);
  const locate = (key: string) => {
    const [section, name, ...rest] = key.split('.');
    // A permission's name may hold dots (user_actions.books): the longest declared name wins.
    const named = MERGED.includes(section!) ? declaredName(files, section!, [name!, ...rest]) : undefined;
    const parsed = (named && files.find((candidate) => Object.hasOwn(sectionOf(candidate, section!), named))) || files[0]!;
    const path = named ? [section!, named, ...rest.slice(named.split('.').length - 1)] : key.split('.');
    return { file: parsed.file, line: parsed.lineOf(path) };
  };
  return { declaration, file: main, sources: files.map(({ file, text }) => ({ file, text })), text: JSON.stringify(declaration), locate };
}

/** Parses a declaration held in memory (the text `schema apply` recorded); includes were already merged into it. */
export function parseDeclarationText(file: string, text: string): Declaration {
  const problems: DeclarationProblem[] = [];
  const parsed = parseText(file, text, problems);
  if (parsed) checkShape(parsed, true, problems);
  if (!parsed || problems.length > 0) throw new DeclarationError(problems);
  return parsed.value as unknown as Declaration;
}

function parseFile(file: string, problems: DeclarationProblem[]): ParsedFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    problems.push({ file, line: 0, key: '', message: `cannot be read: ${describeSystemError(error)}` });
    return undefined;
  }
  return parseText(file, text, problems);
}

function parseText(file: string, text: string, problems: DeclarationProblem[]): ParsedFile | undefined {
  // JSON is YAML 1.2, so one parser covers both and gives lines for either.
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    for (const error of document.errors) {
      problems.push({ file, line: lineCounter.linePos(error.pos[0]).line, key: '', message: error.message.split('\n')[0]! });
    }
    return undefined;
  }
  const value = document.toJS({ maxAliasCount: 100 }) as unknown;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ file, line: 1, key: '', message: 'must be a mapping of keys (loom, name, version, types…)' });
    return undefined;
  }
  return { file, text, value: value as Record<string, unknown>, lineOf: (path) => lineOf(document, lineCounter, path) };
}

function lineOf(document: Document, counter: LineCounter, path: readonly (string | number)[]): number {
  // The deepest node of the path that exists: a missing key is reported where its parent is.
  for (let length = path.length; length >= 0; length -= 1) {
    const prefix = path.slice(0, length);
    const node = prefix.length === 0 ? document.contents : (document.getIn(prefix, true) as YamlNode | undefined);
    if (node && typeof node === 'object' && 'range' in node && node.range) {
      // A key's line is more useful than its value's (a block mapping starts on the next line).
      const parent = prefix.length === 0 ? undefined : length === 1 ? document.contents : document.getIn(prefix.slice(0, -1), true);
      if (yaml().isMap(parent)) {
        const pair = parent.items.find((item) => (item.key as { value?: unknown } | null)?.value === prefix[prefix.length - 1]);
        const keyRange = (pair?.key as YamlNode | undefined)?.range;
        if (keyRange) return counter.linePos(keyRange[0]).line;
      }
      return counter.linePos(node.range[0]).line;
    }
  }
  return 1;
}

/** The main file needs `loom`, `name`, `version`; an included file holds types, permissions and further includes only. */
function checkShape(parsed: ParsedFile, isMain: boolean, problems: DeclarationProblem[]): void {
  const value = isMain ? parsed.value : { loom: 1, name: 'included', version: 1, types: {}, ...parsed.value };
  if (!isMain) {
    for (const key of Object.keys(parsed.value)) {
      if (key !== 'scopes' && key !== 'include' && !MERGED.includes(key)) {
        problems.push({ file: parsed.file, line: parsed.lineOf([key]), key, message: `an included file may hold only ${MERGED.join(', ')}, scopes and include` });
      }
    }
  }
  const validate = validateFile();
  if (validate(value)) return;
  for (const error of pickErrors(validate.errors ?? [])) {
    const path = error.instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    const key = error.keyword === 'additionalProperties'
      ? [...path, (error.params as { additionalProperty: string }).additionalProperty]
      : error.keyword === 'required' ? [...path, (error.params as { missingProperty: string }).missingProperty] : path;
    problems.push({ file: parsed.file, line: parsed.lineOf(key), key: key.join('.'), message: describe(error) });
  }
}

/**
 * `oneOf` failures come with one error per branch; the user wants the one about their key. Keep
 * the deepest errors, and for a path that only failed a `oneOf` keep that summary.
 */
function pickErrors(errors: ErrorObject[]): ErrorObject[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const list = byPath.get(error.instancePath) ?? [];
    list.push(error);
    byPath.set(error.instancePath, list);
  }
  const picked: ErrorObject[] = [];
  const paths = [...byPath.keys()];
  for (const [path, list] of byPath) {
    const deeper = paths.some((other) => other !== path && other.startsWith(`${path}/`));
    if (deeper && !list.some(isKeyed)) continue;
    const oneOf = list.find((error) => error.keyword === 'oneOf');
    const keyed = list.filter(isKeyed);
    const fitting = oneOf && !deeper ? fittingBranch(oneOf, list) : undefined;
    if (keyed.length > 0 && !oneOf) picked.push(...keyed);
    else if (fitting) picked.push(...fitting);
    else picked.push(oneOf ?? list[0]!);
  }
  return picked;
}

function isKeyed(error: ErrorObject): boolean {
  return error.keyword === 'additionalProperties' || error.keyword === 'required';
}

/**
 * What is wrong with a value no form of a `oneOf` takes, when that can be said better than "fits
 * no form": the errors of the one form whose type the value has, when they name its keys (a
 * mapping given for a permission is told which key is wrong); or, when the value has none of the
 * forms' types, which types those are.
 */
function fittingBranch(oneOf: ErrorObject, list: readonly ErrorObject[]): ErrorObject[] | undefined {
  const prefix = `${oneOf.schemaPath}/`;
  const branches = new Map<string, ErrorObject[]>();
  for (const error of list) {
    if (!error.schemaPath.startsWith(prefix)) continue;
    const branch = error.schemaPath.slice(prefix.length).split('/')[0]!;
    branches.set(branch, [...(branches.get(branch) ?? []), error]);
  }
  const typeErrors = [...branches.values()].map((errors) => errors.find((error) => error.keyword === 'type'));
  const fitting = [...branches.values()].filter((_, index) => typeErrors[index] === undefined);
  if (fitting.length === 1 && fitting[0]!.every(isKeyed)) return fitting[0];
  if (branches.size === 0 || fitting.length > 0) return undefined;
  const types = typeErrors.flatMap((error) => (error!.params as { type: string | string[] }).type);
  return [{ ...oneOf, keyword: 'type', params: { type: types } }];
}

/** What a JSON Schema type is called in a YAML file. */
const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  object: 'a mapping',
  array: 'a list',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
};

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'additionalProperties': return 'is not a key Loom knows here';
    case 'required': return 'is required';
    case 'enum': return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'oneOf': return 'is not one of the allowed forms (see loom-schema.json)';
    case 'const': return `must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`;
    case 'type': return `must be ${[(error.params as { type: string | string[] }).type].flat().map((type) => TYPE_WORDS[type] ?? type).join(' or ')}`;
    default: return error.message ?? 'is not valid';
  }
}

function sectionOf(parsed: ParsedFile, section: string): Record<string, unknown> {
  const value = parsed.value[section];
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

/** The longest of `parts` joined by dots that some file declares in the section. */
function declaredName(files: readonly ParsedFile[], section: string, parts: readonly string[]): string | undefined {
  for (let length = parts.length; length > 0; length -= 1) {
    const name = parts.slice(0, length).join('.');
    if (files.some((parsed) => Object.hasOwn(sectionOf(parsed, section), name))) return name;
  }
  return undefined;
}

function merge(files: ParsedFile[], problems: DeclarationProblem[]): Declaration {
  const main = files[0]!;
  const merged = structuredClone(main.value);
  delete merged.include;
  for (const section of MERGED) {
    const entries = { ...sectionOf(main, section) };
    const declaredIn = new Map(Object.keys(entries).map((name) => [name, main.file]));
    for (const parsed of files.slice(1)) {
      for (const [name, entry] of Object.entries(sectionOf(parsed, section))) {
        const earlier = declaredIn.get(name);
        if (earlier !== undefined) {
          problems.push({ file: parsed.file, line: parsed.lineOf([section, name]), key: `${section}.${name}`, message: `is already declared in ${earlier}` });
          continue;
        }
        declaredIn.set(name, parsed.file);
        entries[name] = entry;
      }
    }
    // A section no file holds stays absent, so the recorded text of a declaration without it is unchanged.
    if (section === 'types' || Object.hasOwn(merged, section) || declaredIn.size > 0) merged[section] = entries;
  }
  for (const parsed of files.slice(1)) {
    const scopes = parsed.value.scopes as Record<string, string> | undefined;
    if (scopes) merged.scopes = { ...(merged.scopes as Record<string, string> | undefined), ...scopes };
  }
  return merged as unknown as Declaration;
}
