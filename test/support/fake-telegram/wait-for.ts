import type { Changes } from './changes.ts';

export type Check<T> = () => T | undefined | null | false;

/**
 * Resolves with the first truthy value of `check`, evaluated now and after every change.
 * Rejects after `timeoutMs` with `explain()` appended, so a failing test shows what the bot
 * actually did.
 */
export function waitUntil<T>(changes: Changes, check: Check<T>, timeoutMs: number, explain: () => string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let unsubscribe = () => {};
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`waitFor timed out after ${timeoutMs} ms.\n${explain()}`));
    }, timeoutMs);
    const settle = (): boolean => {
      let value: T | undefined | null | false;
      try {
        value = check();
      } catch (error) {
        clearTimeout(timer);
        unsubscribe();
        reject(error instanceof Error ? error : new Error(String(error)));
        return true;
      }
      if (!value) return false;
      clearTimeout(timer);
      unsubscribe();
      resolve(value);
      return true;
    };
    if (!settle()) unsubscribe = changes.subscribe(() => void settle());
  });
}

/** A twin's last calls and what it answered, for a timed-out wait's message. */
export function recentCalls(calls: readonly { route: string; status: number }[]): string {
  return `Recent calls:\n${calls
    .slice(-15)
    .map((call) => `  ${call.route} → ${call.status}`)
    .join('\n')}`;
}
