/** The data plan of the schema a database serves: the last one `loom schema apply` recorded. */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Store } from '../../store/store.js';
import { readAppliedSchema } from '../applied.js';
import type { CodeModule } from '../model.js';
import { planData, type DataPlan } from './plan.js';

export class NoAppliedSchemaError extends Error {}

export async function appliedDataPlan(store: Store): Promise<DataPlan> {
  const applied = await readAppliedSchema(store);
  if (applied === undefined) throw new NoAppliedSchemaError('the database has no schema yet; run "loom schema apply FILE.loom.yaml" on it first');
  const codePath = applied.declaration.code;
  let code: CodeModule | undefined;
  if (codePath !== undefined) {
    if (!isAbsolute(codePath)) throw new NoAppliedSchemaError(`the applied schema names the code module ${codePath} without saying where it is`);
    code = ((await import(pathToFileURL(codePath).href)) as { default: CodeModule }).default;
  }
  return planData(applied.declaration, applied.storage, code);
}
