/**
 * `loom schema check FILE --data`: the stored objects that FILE's narrowing changes (over the
 * applied declaration) would reject, listed before anything is applied.
 */
import { readAppliedSchema } from '../declared/applied.js';
import { diffDeclarations } from '../declared/diff.js';
import type { LoadedDeclaration } from '../declared/model.js';
import { describeNarrowing, findOffenders, MAX_LISTED, narrowingsOf } from '../declared/narrowing.js';
import { redactPassword } from '../store/redact-password.js';
import { UsageError } from './args.js';
import { openExistingStore } from './existing-store.js';

export async function checkStoredData(loaded: LoadedDeclaration, db: string, json: boolean): Promise<void> {
  const store = openExistingStore(db);
  try {
    const previous = await readAppliedSchema(store);
    if (!previous) throw new UsageError(`${redactPassword(db)} has no applied schema: there is no stored data to check`, { help: false });
    const { storage } = diffDeclarations(previous, loaded.declaration);
    const narrowings = narrowingsOf(previous, loaded.declaration, storage);
    const { offenders, total } = await findOffenders(store, narrowings);
    if (json) {
      process.stdout.write(
        `${JSON.stringify({
          narrowings: narrowings.map(({ field, change }) => ({ field, change })),
          offenders: offenders.map((offender) => ({ ...offender, id: String(offender.id), key: offender.key ?? null })),
          total,
        })}\n`,
      );
    } else {
      const lines = narrowings.map(describeNarrowing);
      for (const offender of offenders) {
        lines.push(`${offender.field} of node ${offender.id}${offender.key === undefined ? '' : ` (key "${offender.key}")`} = ${JSON.stringify(offender.value)}: ${offender.reason}`);
      }
      if (total > offenders.length) lines.push(`… and ${(total - offenders.length).toLocaleString('en-US')} more (the first ${MAX_LISTED.toLocaleString('en-US')} are listed)`);
      if (narrowings.length === 0) lines.push(`${loaded.file} narrows no field of the applied schema: apply it as it is.`);
      else if (total === 0) lines.push(`No stored object breaks the narrowed rules: apply with --force.`);
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    if (total > 0) throw new UsageError(`${total.toLocaleString('en-US')} stored values break the rules of ${loaded.file}`, { help: false, exitCode: 1 });
  } finally {
    await store.close();
  }
}
