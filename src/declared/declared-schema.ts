/**
 * A declaration made servable: its code module imported (every name it must hold checked), its
 * types compiled against the pinned storage keys, and the Schema the engine serves built from them.
 */
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Schema } from '../schema/registry.js';
import { compileDeclaration, type CompiledDeclaration, type Locate } from './compile.js';
import { DeclarationError } from './load.js';
import type { CodeModule, Declaration, StorageKeys } from './model.js';

export interface DeclaredSchema {
  schema: Schema;
  compiled: CompiledDeclaration;
}

/** Imports the `code:` module named by a declaration read from `file`. */
export async function loadCode(declaration: Declaration, file: string): Promise<CodeModule | undefined> {
  if (declaration.code === undefined) return undefined;
  const path = resolve(dirname(file), declaration.code);
  try {
    const module = (await import(pathToFileURL(path).href)) as { default?: CodeModule };
    const code = module.default;
    if (!code || typeof code !== 'object') throw new Error('it has no default export of computed fields and validators');
    return code;
  } catch (error) {
    const message = (error as Error).message;
    // A .js file outside an ES-module package is read as CommonJS, where `export default` is a syntax error.
    const hint = error instanceof SyntaxError && /export|import/.test(message) ? ' (name it .mjs, or put {"type":"module"} in a package.json beside it)' : '';
    throw new DeclarationError([{ file, line: 0, key: 'code', message: `${path} cannot be loaded: ${message}${hint}` }]);
  }
}

export async function buildDeclaredSchema(
  declaration: Declaration,
  file: string,
  pinned?: StorageKeys,
  locate?: Locate,
  /** The app serving the schema, once `schema apply` has made it. */
  ownApp?: number,
): Promise<DeclaredSchema> {
  const code = await loadCode(declaration, file);
  const compiled = compileDeclaration(declaration, code, pinned, locate ?? (() => ({ file, line: 0 })));
  try {
    const schema = new Schema(compiled.types, {
      ...(compiled.principal ? { principal: compiled.principal } : {}),
      permissions: compiled.permissions,
      ...(ownApp !== undefined ? { ownApp } : {}),
      ...(compiled.appWrites ? { appWrites: compiled.appWrites } : {}),
      ...(compiled.writePolicy ? { writePolicy: compiled.writePolicy } : {}),
    });
    return { schema, compiled };
  } catch (error) {
    throw new DeclarationError([{ file, line: 0, key: '', message: (error as Error).message }]);
  }
}
