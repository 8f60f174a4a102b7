import { BRIDGE_ENV_PREFIXES } from '../transports/index.ts';

/**
 * The bridge's own telemetry settings (OTEL_*): its collector's address and headers, which
 * often carry a token. A CLI that exports telemetry of its own is set up apart.
 */
const TELEMETRY_PREFIX = 'OTEL_';

const isBridgeVariable = (name: string) => name.startsWith(TELEMETRY_PREFIX) || BRIDGE_ENV_PREFIXES.some((prefix) => name.startsWith(prefix));

/** The environment child processes run with: the bridge's own, less its settings and secrets (API keys for the CLIs pass through). */
export function childEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isBridgeVariable(name)));
}
