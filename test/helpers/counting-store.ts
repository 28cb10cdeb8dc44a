import type { Store } from '../../src/store/store.js';

/** Counts calls into a real store, passing every call through untouched. */
export function countingStore(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return value.apply(target, args);
      };
    },
  });
  return { store: counted, calls };
}
