import { BRIDGE_ENV_PREFIXES } from '../transports/index.ts';

const isBridgeVariable = (name: string) => BRIDGE_ENV_PREFIXES.some((prefix) => name.startsWith(prefix));

/** The environment child processes run with: the bridge's own, less its settings and secrets (API keys for the CLIs pass through). */
export function childEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isBridgeVariable(name)));
}
