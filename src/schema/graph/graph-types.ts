/**
 * The built-in node types, read from their declaration (graph-v2.4.loom.yaml) through the same
 * loader, validation and compiler as any declared schema, with the code module it names imported
 * here. Read and compiled once per process: every Schema.default() shares the result.
 */
import { fileURLToPath } from 'node:url';
import { compileDeclaration, type CompiledDeclaration } from '../../declared/compile.js';
import { DeclarationError, loadDeclaration } from '../../declared/load.js';
import graphCode from './code.js';

/** The shipped declaration; compiled code runs from dist/, the declaration stays beside its sources. */
export const GRAPH_DECLARATION = new URL('../../../../src/schema/graph/graph-v2.4.loom.yaml', import.meta.url);

/** What the declaration's `code:` must say: the module imported above, beside it. */
const CODE_MODULE = './code.ts';

/** What the Graph declaration gives the Schema: its node types and its permission catalogue. */
type GraphDeclaration = Pick<CompiledDeclaration, 'types' | 'permissions'>;

/** Loads and compiles a Graph declaration file (the shipped one, or a copy of it) with the Graph code module. */
export function compileGraphDeclaration(file: string): GraphDeclaration {
  const loaded = loadDeclaration(file);
  const { declaration } = loaded;
  if (declaration.code !== CODE_MODULE || declaration.data !== 'graph') {
    throw new DeclarationError([{ ...loaded.locate(declaration.code !== CODE_MODULE ? 'code' : 'data'), key: declaration.code !== CODE_MODULE ? 'code' : 'data', message: `the built-in declaration is \`data: graph\` with \`code: ${CODE_MODULE}\`` }]);
  }
  const { types, permissions } = compileDeclaration(declaration, graphCode, undefined, loaded.locate);
  return { types, permissions };
}

let compiled: GraphDeclaration | undefined;

/** The built-in types and permissions, compiled on first use. */
export function graphDeclaration(): GraphDeclaration {
  compiled ??= compileGraphDeclaration(fileURLToPath(GRAPH_DECLARATION));
  return compiled;
}
