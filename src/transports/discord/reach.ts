import { Routes, type APIUser } from 'discord.js';
import type { REST } from 'discord.js';
import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { discordCode, grantsMessageContent, httpStatus, type ApplicationInfo } from './rest.ts';
import { MESSAGE_CONTENT_HOW } from './invite.ts';

/** Discord refused the token: nothing will work until it is changed. */
export class DiscordTokenRefusedError extends TransportRefusedError {
  override name = 'DiscordTokenRefusedError';
}

export const TOKEN_HOW = "copy the bot's token from the Discord Developer Portal (your application → Bot → Reset Token) into DISCORD_BOT_TOKEN";

/** Who the bot is, its application, and whether guild messages will carry their text. */
export interface DiscordIdentity {
  user: APIUser;
  application: ApplicationInfo;
  messageContent: boolean;
}

/** Waits between attempts double from 1 s up to this. */
const MAX_WAIT_S = 60;

/**
 * The bot's identity, from Discord: asked until Discord answers (a line per failed attempt,
 * backing off, forever: a server may boot before its network), and a DiscordTokenRefusedError
 * at once when the token is refused. The REST client given has no retries of its own.
 */
export async function reachDiscord(
  rest: REST,
  where: string,
  log: Log,
  wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<DiscordIdentity> {
  for (let attempt = 1; ; attempt++) {
    try {
      const user = (await rest.get(Routes.user('@me'))) as APIUser;
      const application = (await rest.get(Routes.currentApplication())) as ApplicationInfo;
      if (attempt > 1) log.info(`Discord (${where}) answered; starting`);
      return { user, application: { id: application.id, flags: application.flags ?? 0 }, messageContent: grantsMessageContent(application) };
    } catch (error) {
      if (httpStatus(error) === 401) throw new DiscordTokenRefusedError(`Discord refused DISCORD_BOT_TOKEN (401 Unauthorized): ${TOKEN_HOW}, and start again.`);
      const seconds = Math.min(MAX_WAIT_S, 2 ** (attempt - 1));
      const code = discordCode(error);
      const why = code !== undefined ? `${httpStatus(error)} ${(error as Error).message}` : error instanceof Error ? error.message : String(error);
      log.warn(`Discord (${where}) is unreachable: ${why}; trying again in ${seconds} s (attempt ${attempt})`);
      await wait(seconds * 1000);
    }
  }
}

/** Said at start and by the doctor when guild messages will arrive without their text. */
export const MESSAGE_CONTENT_OFF = `the Message Content intent is off, so in servers only messages that mention the bot reach it with their text (${MESSAGE_CONTENT_HOW})`;
