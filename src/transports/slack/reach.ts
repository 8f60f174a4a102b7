import type { WebClient } from '@slack/web-api';
import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { isTokenRefusal, platformError, slackClient } from './client.ts';
import type { ReadySlackSettings } from './settings.ts';

/** Who the bot is in its workspace: what mentions of it look like (`<@U…>`). */
export interface SlackIdentity {
  botUserId: string;
  botId: string;
  name: string;
  /** The workspace's name, and its id: people of other workspaces are told apart by it. */
  team: string;
  teamId: string;
}

/** Waits between attempts double from 1 s up to this. */
const MAX_WAIT_S = 60;

/**
 * The bot's identity, from Slack (auth.test), and the app token's Socket Mode tried once: asked
 * until Slack answers (a line per failed attempt, capped backoff, forever: a server may boot
 * before its network), a TransportRefusedError naming Slack at once when it refuses a token.
 */
export async function reachSlack(
  settings: ReadySlackSettings,
  log: Log,
  wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<SlackIdentity> {
  const where = new URL(settings.apiUrl).host;
  const bot = slackClient(settings.botToken, settings.apiUrl, { retries: 0, timeoutMs: 15_000 });
  const app = settings.receiving.mode === 'socket' ? slackClient(settings.receiving.appToken, settings.apiUrl, { retries: 0, timeoutMs: 15_000 }) : undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      const me = await ask(bot, 'SLACK_BOT_TOKEN', "copy the Bot User OAuth Token (xoxb-…) from your app's OAuth & Permissions page", (web) => web.auth.test());
      if (app)
        await ask(
          app,
          'SLACK_APP_TOKEN',
          'create an app-level token with connections:write (Basic Information → App-Level Tokens) and turn Socket Mode on',
          (web) => web.apps.connections.open(),
        );
      if (attempt > 1) log.info(`Slack (${where}) answered; starting`);
      return { botUserId: me.user_id!, botId: me.bot_id ?? '', name: me.user ?? 'bridge', team: me.team ?? '', teamId: me.team_id ?? '' };
    } catch (error) {
      if (error instanceof TransportRefusedError) throw error;
      const seconds = Math.min(MAX_WAIT_S, 2 ** (attempt - 1));
      log.warn(`Slack (${where}) is unreachable: ${(error as Error).message}; trying again in ${seconds} s (attempt ${attempt})`);
      await wait(seconds * 1000);
    }
  }
}

async function ask<T>(web: WebClient, variable: string, fix: string, call: (web: WebClient) => Promise<T>): Promise<T> {
  try {
    return await call(web);
  } catch (error) {
    if (isTokenRefusal(error)) throw new TransportRefusedError(`Slack refused ${variable} (${platformError(error)}): ${fix}, and set it again.`);
    throw error;
  }
}

/** How long one auth.test takes now: Slack's round trip, for /status. */
export function slackRoundTrip(settings: ReadySlackSettings): () => Promise<number> {
  const web = slackClient(settings.botToken, settings.apiUrl, { retries: 0, timeoutMs: 15_000 });
  return async () => {
    const start = performance.now();
    await web.auth.test();
    return performance.now() - start;
  };
}
