/**
 * A record keyed by outside input (a run id, a chat, a name someone typed) read and written as
 * a map: `__proto__` or `constructor` is a key like any other, never something every object
 * inherits (a lookup that answered with `Object.prototype` was a 500 where "not found" was due).
 */
export function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets `key` as the record's own property, even `__proto__` (whose assignment would replace the prototype). */
export function putOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}
