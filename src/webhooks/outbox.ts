import type { Clock } from '../clock/clock.js';
import type { Store } from '../store/store.js';
import type { WriteOp } from '../store/write-ops.js';
import { changeOps } from './change-fields.js';

/**
 * The store as the server's requests use it: every write batch carries, in its own transaction,
 * the outbox entries of the changes it makes, and every change of a person's grants records the
 * permissions it changes. A notification can then never be lost between a commit and its
 * delivery, nor sent for a change that rolled back.
 */
export function withOutbox(store: Store, clock: Clock): Store {
  const write = (ops: readonly WriteOp[]) => store.write([...ops, ...changeOps(ops, clock.now())]);
  const updateGrants: Store['updateGrants'] = (appId, userId, changes, options = {}) =>
    store.updateGrants(appId, userId, changes, { ...options, changesAt: clock.now() });
  // Every store call of every request passes here: each method is bound once, not on each call.
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (property === 'write') return write;
      if (property === 'updateGrants') return updateGrants;
      const known = bound.get(property);
      if (known !== undefined) return known;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method: unknown = value.bind(target);
      bound.set(property, method);
      return method;
    },
  });
}
