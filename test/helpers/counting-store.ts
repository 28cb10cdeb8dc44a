import type { Store } from '../../src/store/store.js';

export interface StoreCall {
  method: string;
  args: unknown[];
}

/** Counts calls into a real store, passing every call through untouched; `withArgs` holds each call with its arguments. */
export function countingStore(store: Store): { store: Store; calls: string[]; withArgs: StoreCall[] } {
  const calls: string[] = [];
  const withArgs: StoreCall[] = [];
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        withArgs.push({ method: String(property), args });
        return value.apply(target, args);
      };
    },
  });
  return { store: counted, calls, withArgs };
}
