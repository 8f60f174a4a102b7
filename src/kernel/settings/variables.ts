import { ConfigError } from '../errors/config-error.ts';

/** A variable's comma-separated entries, trimmed, empty ones left out (`a, b,` is `a` and `b`). */
export function commaList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** A whole number of at least `min`; unset: `fallback`. */
export function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new ConfigError(`${name}: expected a whole number of at least ${min}, got "${raw}"`);
  }
  return Number(raw);
}

/** `on` or `off`, in any case; unset: `fallback`. */
export function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`${name}: expected on or off, got "${env[name]!.trim()}"`);
  return raw === 'on';
}
