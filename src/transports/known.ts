/**
 * The transports this bridge has, by id, and what the core must know of each before one is
 * chosen: the one place outside their folders that names them. Their own variables in the
 * environment (a bot token) never reach an agent and are redacted from whatever is printed,
 * whichever transport runs. A new transport is its folder and a line here.
 */
export interface KnownTransport {
  id: string;
  /** The prefix of its own environment variables, when it has any. */
  envPrefix?: string;
  /** Whether a bare number, where a person writes a chat or user, means this transport's. */
  bareNumbers?: boolean;
}

export const KNOWN_TRANSPORTS: readonly KnownTransport[] = [
  { id: 'telegram', envPrefix: 'TELEGRAM_', bareNumbers: true },
  { id: 'discord', envPrefix: 'DISCORD_' },
  { id: 'console' },
];

/** The transport a bare number means (BRIDGE_ALLOWED_USERS, BRIDGE_API_SCOPES, the API's chat_id). */
export const BARE_NUMBERS: string = KNOWN_TRANSPORTS.find((t) => t.bareNumbers)!.id;

/**
 * The prefixes of the bridge's own variables, every transport's included: its settings and
 * secrets (a bot token, API and transcription keys, the Redis URL with its password). A
 * coding agent and the git hooks it may trigger have no business with any of them.
 */
export const BRIDGE_ENV_PREFIXES: readonly string[] = [...KNOWN_TRANSPORTS.flatMap((t) => (t.envPrefix ? [t.envPrefix] : [])), 'BRIDGE_', 'SUBAGENTS_'];
