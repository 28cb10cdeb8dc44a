/**
 * Reads a declaration file (YAML 1.2, or JSON) and the files it includes, checks each against
 * `loom-schema.json`, and merges them into one Declaration. Every problem names the file, the line
 * and the key, so a mistake is found in the editor rather than by a puzzling answer later.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { LineCounter, isMap, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import type { Declaration, LoadedDeclaration, TypeDecl } from './model.js';
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

const schemaJson = JSON.parse(readFileSync(new URL('../../../loom-schema.json', import.meta.url), 'utf8')) as object;
const validateFile = new Ajv({ allErrors: true, strict: false }).compile(schemaJson);

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
    const path = key.split('.');
    const parsed = (path[0] === 'types' && files.find((candidate) => Object.hasOwn((candidate.value.types ?? {}), path[1]!))) || files[0]!;
    return { file: parsed.file, line: parsed.lineOf(path) };
  };
  return { declaration, file: main, text: JSON.stringify(declaration), locate };
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
      if (isMap(parent)) {
        const pair = parent.items.find((item) => (item.key as { value?: unknown } | null)?.value === prefix[prefix.length - 1]);
        const keyRange = (pair?.key as YamlNode | undefined)?.range;
        if (keyRange) return counter.linePos(keyRange[0]).line;
      }
      return counter.linePos(node.range[0]).line;
    }
  }
  return 1;
}

/** The main file needs `loom`, `name`, `version`; an included file holds types (and scopes) only. */
function checkShape(parsed: ParsedFile, isMain: boolean, problems: DeclarationProblem[]): void {
  const value = isMain ? parsed.value : { loom: 1, name: 'included', version: 1, ...parsed.value };
  if (!isMain) {
    for (const key of Object.keys(parsed.value)) {
      if (key !== 'types' && key !== 'scopes' && key !== 'include') {
        problems.push({ file: parsed.file, line: parsed.lineOf([key]), key, message: 'an included file may hold only types, scopes and include' });
      }
    }
  }
  if (validateFile(value)) return;
  for (const error of pickErrors(validateFile.errors ?? [])) {
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
    if (paths.some((other) => other !== path && other.startsWith(`${path}/`) && !list.some((error) => error.keyword === 'additionalProperties' || error.keyword === 'required'))) continue;
    const oneOf = list.find((error) => error.keyword === 'oneOf');
    const keyed = list.filter((error) => error.keyword === 'additionalProperties' || error.keyword === 'required');
    if (keyed.length > 0 && !oneOf) picked.push(...keyed);
    else picked.push(oneOf ?? list[0]!);
  }
  return picked;
}

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'additionalProperties': return 'is not a key Loom knows here';
    case 'required': return 'is required';
    case 'enum': return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'oneOf': return 'is not one of the allowed forms (see loom-schema.json)';
    case 'const': return `must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`;
    default: return error.message ?? 'is not valid';
  }
}

function merge(files: ParsedFile[], problems: DeclarationProblem[]): Declaration {
  const main = files[0]!;
  const declaration = structuredClone(main.value) as unknown as Declaration;
  delete declaration.include;
  const typeFiles = new Map<string, string>(Object.keys(declaration.types).map((name) => [name, main.file]));
  for (const parsed of files.slice(1)) {
    const types = (parsed.value.types ?? {}) as Record<string, TypeDecl>;
    for (const [name, type] of Object.entries(types)) {
      if (typeFiles.has(name)) {
        problems.push({ file: parsed.file, line: parsed.lineOf(['types', name]), key: `types.${name}`, message: `is already declared in ${typeFiles.get(name)}` });
        continue;
      }
      typeFiles.set(name, parsed.file);
      declaration.types[name] = type;
    }
    const scopes = parsed.value.scopes as Record<string, string> | undefined;
    if (scopes) declaration.scopes = { ...declaration.scopes, ...scopes };
  }
  return declaration;
}
