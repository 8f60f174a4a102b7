import type { WebClient } from '@slack/web-api';
import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { isTokenRefusal, platformError, slackClient } from './client.ts';
import type { ReadySlackSettings } from './settings.ts';
import { roundTrip, untilAnswered } from '../serving/reach.ts';

/** Who the bot is in its workspace: what mentions of it look like (`<@U…>`). */
export interface SlackIdentity {
  botUserId: string;
  botId: string;
  name: string;
  /** The workspace's name, and its id: people of other workspaces are told apart by it. */
  team: string;
  teamId: string;
}

/**
 * The bot's identity, from Slack (auth.test), and the app token's Socket Mode tried once: asked
 * until Slack answers (untilAnswered), a TransportRefusedError naming Slack at once when it
 * refuses a token.
 */
export function reachSlack(settings: ReadySlackSettings, log: Log): Promise<SlackIdentity> {
  const bot = slackClient(settings.botToken, settings.apiUrl, { retries: 0, timeoutMs: 15_000 });
  const app = settings.receiving.mode === 'socket' ? slackClient(settings.receiving.appToken, settings.apiUrl, { retries: 0, timeoutMs: 15_000 }) : undefined;
  const reach = async (): Promise<SlackIdentity> => {
    const me = await ask(bot, 'SLACK_BOT_TOKEN', "copy the Bot User OAuth Token (xoxb-…) from your app's OAuth & Permissions page", (web) => web.auth.test());
    if (app)
      await ask(
        app,
        'SLACK_APP_TOKEN',
        'create an app-level token with connections:write (Basic Information → App-Level Tokens) and turn Socket Mode on',
        (web) => web.apps.connections.open(),
      );
    return { botUserId: me.user_id!, botId: me.bot_id ?? '', name: me.user ?? 'bridge', team: me.team ?? '', teamId: me.team_id ?? '' };
  };
  return untilAnswered(`Slack (${new URL(settings.apiUrl).host})`, reach, {
    log,
    refusal: (error) => (error instanceof TransportRefusedError ? error : undefined),
  });
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
  return roundTrip(() => web.auth.test());
}
