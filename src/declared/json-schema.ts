/**
 * JSON Schema checks (Ajv), for declaration files against `loom-schema.json` and for declared
 * fields that carry a `schema:`. Ajv is loaded on first use: a process whose declarations come
 * from the cache (load-cache.ts) and declare no such field never loads its modules.
 */
import { createRequire } from 'node:module';
import type { Options, ValidateFunction } from 'ajv';
import type * as AjvModule from 'ajv';

const require = createRequire(import.meta.url);

/** A checker of `schema`; `allErrors` reports every problem rather than the first. */
export function compileJsonSchema(schema: object, options: Pick<Options, 'allErrors'> = {}): ValidateFunction {
  const { Ajv } = require('ajv') as typeof AjvModule;
  return new Ajv({ ...options, strict: false }).compile(schema);
}
