import { ConfigError } from '../../kernel/errors/config-error.ts';
import type { TransportSources } from '../../kernel/ports/transport.ts';

/** The Discord transport's settings: its own variables, read by nothing else. */
export interface DiscordSettings {
  token?: string;
  /** The REST root, without the version: discord.js adds `/v10`. */
  apiUrl: string;
}

export const DEFAULT_API_URL = 'https://discord.com/api';

export function discordSettings({ env }: Pick<TransportSources, 'env'>): DiscordSettings {
  // A token pasted with the "Bot " of its Authorization header is the same token.
  const token = env.DISCORD_BOT_TOKEN?.trim().replace(/^Bot\s+/i, '');
  return {
    ...(token ? { token } : {}),
    apiUrl: (env.DISCORD_API_URL?.trim() || DEFAULT_API_URL).replace(/\/+$/, ''),
  };
}

/** The settings a running bot needs: a token above all. */
export function requireToken(settings: DiscordSettings): Required<DiscordSettings> {
  if (!settings.token)
    throw new ConfigError("DISCORD_BOT_TOKEN is not set: set it to your bot's token (Discord Developer Portal → your application → Bot → Reset Token).");
  const malformed = tokenProblem(settings.token);
  if (malformed) throw new ConfigError(`DISCORD_BOT_TOKEN: ${malformed}`);
  try {
    new URL(settings.apiUrl);
  } catch {
    throw new ConfigError(`DISCORD_API_URL: "${settings.apiUrl}" is not a URL (the REST root, such as ${DEFAULT_API_URL})`);
  }
  return { token: settings.token, apiUrl: settings.apiUrl };
}

/**
 * What is wrong with a value that is no bot token (Discord's are three dot-separated parts: the
 * bot's id in base64, a time, a signature), said without the value, which is never sent.
 */
export function tokenProblem(token: string): string | undefined {
  if (/^[\w-]{16,}\.[\w-]{4,}\.[\w-]{20,}$/.test(token)) return undefined;
  return `expected the token the Developer Portal gave your bot (three parts separated by dots: MTk4…Cl2FMQ.ZnCj…), got ${token.length} characters that are not one`;
}
