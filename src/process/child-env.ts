/**
 * The bridge's own settings and secrets: the bot token, API and transcription keys, the
 * Redis URL with its password, the limits. A coding agent and the git hooks it may trigger
 * have no business with any of them.
 */
const BRIDGE_VARIABLES = /^(TELEGRAM_|BRIDGE_|SUBAGENTS_)/;

/** The environment child processes run with: the bridge's own, less its settings and secrets (API keys for the CLIs pass through). */
export function childEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !BRIDGE_VARIABLES.test(name)));
}
