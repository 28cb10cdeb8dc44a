/** The data plan of the schema a database serves: the last one `loom schema apply` recorded. */
import type { Store } from '../../store/store.js';
import { readAppliedSchema } from '../applied.js';
import { loadCode } from '../declared-schema.js';
import { planData, type DataPlan } from './plan.js';

export class NoAppliedSchemaError extends Error {}

export async function appliedDataPlan(store: Store): Promise<DataPlan> {
  const applied = await readAppliedSchema(store);
  if (applied === undefined) throw new NoAppliedSchemaError('the database has no schema yet; run "loom schema apply FILE.loom.yaml" on it first');
  return planData(applied.declaration, applied.storage, await loadCode(applied.declaration, applied.source));
}
