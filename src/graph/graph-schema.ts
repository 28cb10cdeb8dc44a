/**
 * The Graph API v2.4 package as a Schema: its declaration (graph-v2.4.loom.yaml, with its
 * permission catalogue in permissions.loom.yaml) read through the same loader, validation and
 * compiler as any declared schema, with the code module it names imported here. Compiled once
 * per process: every graphSchema() shares the result; the loaded files are kept beside the build
 * (load-cache), so that a process whose files are unchanged skips reading the YAML.
 */
import { fileURLToPath } from 'node:url';
import { compileDeclaration, type CompiledDeclaration } from '../declared/compile.js';
import { DeclarationError, loadDeclaration } from '../declared/load.js';
import { loadDeclarationCached } from '../declared/load-cache.js';
import { Schema } from '../schema/registry.js';
import graphCode from './code.js';

/** The shipped declaration; compiled code runs from dist/, the declaration stays beside its sources. */
export const GRAPH_DECLARATION = new URL('../../../src/graph/graph-v2.4.loom.yaml', import.meta.url);

/** What the declaration's `code:` must say: the module imported above, beside it. */
const CODE_MODULE = './code.ts';

/** What the Graph declaration gives the Schema: its node types, its permission catalogue, what app tokens may write and its rules for people's writes. */
type GraphDeclaration = Pick<CompiledDeclaration, 'types' | 'permissions' | 'appWrites' | 'writePolicy'>;

/**
 * The loaded shipped declaration, kept for the next process. Named from the folder above, as the
 * CLI's bundle (scripts/bundle-cli.mjs), whose every module's place is its own, lies beside this one.
 */
const GRAPH_CACHE = new URL('../graph/graph-v2.4.declaration.json', import.meta.url);

/**
 * Loads and compiles a Graph declaration file (the shipped one, or a copy of it) with the Graph
 * code module; with `cacheFile`, the loaded files come from it while they are unchanged.
 */
export function compileGraphDeclaration(file: string, cacheFile?: string): GraphDeclaration {
  const loaded = cacheFile === undefined ? loadDeclaration(file) : loadDeclarationCached(file, cacheFile);
  const { declaration } = loaded;
  if (declaration.code !== CODE_MODULE || declaration.data !== 'graph') {
    throw new DeclarationError([{ ...loaded.locate(declaration.code !== CODE_MODULE ? 'code' : 'data'), key: declaration.code !== CODE_MODULE ? 'code' : 'data', message: `the built-in declaration is \`data: graph\` with \`code: ${CODE_MODULE}\`` }]);
  }
  const { types, permissions, appWrites, writePolicy } = compileDeclaration(declaration, graphCode, undefined, loaded.locate);
  return { types, permissions, appWrites, writePolicy };
}

let compiled: Schema | undefined;

/** Every node type and permission of the Graph API, from its declaration; made on first use and shared. */
export function graphSchema(): Schema {
  if (!compiled) {
    const { types, permissions, appWrites, writePolicy } = compileGraphDeclaration(fileURLToPath(GRAPH_DECLARATION), fileURLToPath(GRAPH_CACHE));
    compiled = new Schema(types, { permissions, appWrites, writePolicy });
  }
  return compiled;
}
