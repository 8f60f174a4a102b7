import { sendMeter } from '../../services/telemetry/metrics-chat-apps.ts';
import { DISCORD } from './id.ts';
import { DiscordAPIError, REST } from 'discord.js';
import type { DiscordSettings } from './settings.ts';

/**
 * discord.js's REST client, pointed at the configured root: its queue keeps to each route's
 * rate limit as Discord's headers tell it, waits out a 429's `retry_after`, and retries 5xx
 * and network errors.
 */
export function discordRest({ token, apiUrl }: Required<DiscordSettings>, options: { retries?: number; timeoutMs?: number } = {}): REST {
  const rest = new REST({
    api: apiUrl,
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
  }).setToken(token);
  // Its queue waits a 429 out below the send budget: counted here, where it is seen.
  const meter = sendMeter(DISCORD);
  rest.on('response', (_request, response) => {
    if (response.status === 429) meter.rateLimited();
  });
  return rest;
}

/** Discord's JSON error code (10008 Unknown Message…), when `error` is one of its answers. */
export function discordCode(error: unknown): number | undefined {
  return error instanceof DiscordAPIError ? Number(error.code) : undefined;
}

export function httpStatus(error: unknown): number | undefined {
  return error instanceof DiscordAPIError ? error.status : undefined;
}

/** The bot's application, with the flags that say which privileged intents it was granted. */
export interface ApplicationInfo {
  id: string;
  flags: number;
}

/** Flags of GET /applications/@me: the Message Content intent granted (the second for bots in under 100 servers). */
const GATEWAY_MESSAGE_CONTENT = 1 << 18;
const GATEWAY_MESSAGE_CONTENT_LIMITED = 1 << 19;

export function grantsMessageContent(application: ApplicationInfo): boolean {
  return (application.flags & (GATEWAY_MESSAGE_CONTENT | GATEWAY_MESSAGE_CONTENT_LIMITED)) !== 0;
}
