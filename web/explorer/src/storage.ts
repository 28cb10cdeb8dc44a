/**
 * Browser storage that never throws: storage can be disabled, full or hold another version's
 * data, and none of that may break the page.
 */

export function readStored<T>(storage: Storage, key: string, valid: (value: unknown) => value is T): T | undefined {
  try {
    const text = storage.getItem(key);
    if (text === null) return undefined;
    const value: unknown = JSON.parse(text);
    return valid(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function writeStored(storage: Storage, key: string, value: unknown): void {
  try {
    if (value === undefined) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the page keeps working without remembering.
  }
}
