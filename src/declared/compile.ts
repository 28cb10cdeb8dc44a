/**
 * Turns a declaration into the NodeTypeDefs the engine serves, exactly as it serves the built-in
 * types: one Schema, one engine, one store path.
 */
import type { NodeTypeDef } from '../schema/definition.js';
import type { CodeModule, Declaration, StorageKeys } from './model.js';

export interface CompiledDeclaration {
  types: NodeTypeDef[];
  /** The type user tokens stand for (`me`). */
  principal: string | undefined;
  /** Permissions apps of this schema may request, with their descriptions. */
  scopes: Record<string, string>;
  /** The storage key of every type, field and edge (pinned ones kept, new ones defaulted). */
  storage: StorageKeys;
}

export function compileDeclaration(declaration: Declaration, _code?: CodeModule, _pinned?: StorageKeys): CompiledDeclaration {
  return { types: [], principal: declaration.principal, scopes: declaration.scopes ?? {}, storage: { types: {}, fields: {}, edges: {} } };
}
