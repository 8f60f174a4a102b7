import { fail, pass, warn } from '../../kernel/ports/check-result.ts';
import { unreachable } from '../serving/reach.ts';
import type { CheckResult } from '../../kernel/ports/check-result.ts';
import { inviteUrl, MESSAGE_CONTENT_HOW } from './invite.ts';
import { identityOf, TOKEN_HOW } from './reach.ts';
import { discordRest, httpStatus } from './rest.ts';
import { tokenProblem, type DiscordSettings } from './settings.ts';

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
