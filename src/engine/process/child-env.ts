import { BRIDGE_ENV_PREFIXES } from '../../kernel/known-transports.ts';

/**
 * The OpenTelemetry SDK's standard variables are the bridge's own telemetry settings, and
 * OTEL_EXPORTER_OTLP_HEADERS often carries the collector's token: none reaches a child, which
 * would also export to the bridge's collector as it pleases (Claude Code and codex read them).
 */
const OPENTELEMETRY_PREFIX = 'OTEL_';

const isBridgeVariable = (name: string) => name.startsWith(OPENTELEMETRY_PREFIX) || BRIDGE_ENV_PREFIXES.some((prefix) => name.startsWith(prefix));

/** The environment child processes run with: the bridge's own, less its settings, its telemetry's (OTEL_*) and its secrets (API keys for the CLIs pass through). */
export function childEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isBridgeVariable(name)));
}
