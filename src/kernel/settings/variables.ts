import { ConfigError } from '../errors/config-error.ts';

/** A variable's comma-separated entries, trimmed, empty ones left out (`a, b,` is `a` and `b`). */
export function commaList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** A whole number (of `unit`s) of at least `min`; unset: `fallback`. */
export function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, unit?: string): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new ConfigError(`${name}: expected a whole number${unit ? ` of ${unit}` : ''} of at least ${min}, got "${raw}"`);
  return Number(raw);
}

/** One of `choices`, in any case (`expected` says them when it is not); unset: `fallback`. */
export function oneOf<T extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  choices: readonly T[],
  fallback: T,
  expected = `one of ${choices.join(', ')}`,
): T {
  const value = env[name]?.trim().toLowerCase() || fallback;
  if (!(choices as readonly string[]).includes(value)) throw new ConfigError(`${name}: expected ${expected}, got "${env[name]}"`);
  return value as T;
}

/** `on` or `off` (or the words given), in any case; unset: `fallback`. */
export function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean, [on, off] = ['on', 'off']): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw !== on && raw !== off) throw new ConfigError(`${name}: expected ${on} or ${off}, got "${env[name]!.trim()}"`);
  return raw === on;
}
