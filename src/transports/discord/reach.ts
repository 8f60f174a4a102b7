import { Routes, type APIUser } from 'discord.js';
import type { REST } from 'discord.js';
import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { fail, pass, warn, type CheckResult } from '../../kernel/ports/check-result.ts';
import { discordCode, discordRest, grantsMessageContent, httpStatus, type ApplicationInfo } from './rest.ts';
import { inviteUrl, MESSAGE_CONTENT_HOW } from './invite.ts';
import { untilAnswered, unreachable } from '../serving/reach.ts';
import { tokenProblem, type DiscordSettings } from './settings.ts';

export const TOKEN_HOW = "copy the bot's token from the Discord Developer Portal (your application → Bot → Reset Token) into DISCORD_BOT_TOKEN";

/** Who the bot is, its application, and whether guild messages will carry their text. */
export interface DiscordIdentity {
  user: APIUser;
  application: ApplicationInfo;
  messageContent: boolean;
}

/**
 * The bot's identity, from Discord: asked until Discord answers (untilAnswered), and a
 * TransportRefusedError at once when the token is refused. The REST client given has no
 * retries of its own.
 */
export function reachDiscord(rest: REST, where: string, log: Log): Promise<DiscordIdentity> {
  return untilAnswered(`Discord (${where})`, () => identityOf(rest), {
    log,
    refusal: (error) =>
      httpStatus(error) === 401 ? new TransportRefusedError(`Discord refused DISCORD_BOT_TOKEN (401 Unauthorized): ${TOKEN_HOW}, and start again.`) : undefined,
    why: (error) =>
      discordCode(error) !== undefined ? `${httpStatus(error)} ${(error as Error).message}` : error instanceof Error ? error.message : String(error),
  });
}

/** Who the bot is, asked of Discord once (/users/@me, /applications/@me). */
export async function identityOf(rest: REST): Promise<DiscordIdentity> {
  const user = (await rest.get(Routes.user('@me'))) as APIUser;
  const application = (await rest.get(Routes.currentApplication())) as ApplicationInfo;
  return { user, application: { id: application.id, flags: application.flags ?? 0 }, messageContent: grantsMessageContent(application) };
}

/** Said at start and by the doctor when guild messages will arrive without their text. */
export const MESSAGE_CONTENT_OFF = `the Message Content intent is off, so in servers only messages that mention the bot reach it with their text (${MESSAGE_CONTENT_HOW})`;

/**
 * The token, asked of Discord once (/users/@me), whether the Message Content intent is granted
 * (what guild messages carry depends on it), and the invite link with what the bot needs.
 */
export async function checkDiscord({ token, apiUrl }: DiscordSettings): Promise<CheckResult[]> {
  if (!token) return [fail('Discord token', 'DISCORD_BOT_TOKEN is not set', `Set it: ${TOKEN_HOW}.`)];
  const malformed = tokenProblem(token);
  if (malformed) return [fail('Discord token', `DISCORD_BOT_TOKEN: ${malformed}`, `${TOKEN_HOW[0]!.toUpperCase()}${TOKEN_HOW.slice(1)}.`)];
  const rest = discordRest({ token, apiUrl }, { retries: 0, timeoutMs: 10_000 });
  try {
    const { user: me, application, messageContent } = await identityOf(rest);
    return [
      pass('Discord token', `@${me.username} (id ${me.id})`),
      messageContent
        ? pass('Message Content intent', 'on: in servers the bot reads the messages that mention it and every message of its threads')
        : warn('Message Content intent', 'off: in servers only messages that mention the bot reach it with their text', `${MESSAGE_CONTENT_HOW}.`),
      pass('Discord invite', inviteUrl(application.id)),
    ];
  } catch (error) {
    if (httpStatus(error) === 401) return [fail('Discord token', 'refused by Discord (401)', `${TOKEN_HOW[0]!.toUpperCase()}${TOKEN_HOW.slice(1)}.`)];
    return [unreachable('Discord token', `Discord (${new URL(apiUrl).host})`, error, 'DISCORD_API_URL')];
  }
}
