import type { WebClient } from '@slack/web-api';
import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { fail, pass, type CheckResult } from '../../kernel/ports/check-result.ts';
import { isTokenRefusal, platformError, slackClient } from './client.ts';
import { tokenProblems, type ReadySlackSettings, type SlackSettings } from './settings.ts';
import { roundTrip, untilAnswered, unreachable } from '../serving/reach.ts';

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

/** The doctor's Slack lines: the bot token (auth.test), and the app token where Socket Mode takes it (apps.connections.open). */
export async function checkSlack(settings: SlackSettings): Promise<CheckResult[]> {
  const problems = tokenProblems(settings);
  if (problems.length)
    return problems.map((problem) => fail('Slack', problem, 'Create the app from slack-app-manifest.yml (npm run manifest), install it, and copy its tokens.'));
  const where = new URL(settings.apiUrl).host;
  const results: CheckResult[] = [];
  try {
    const me = await slackClient(settings.botToken!, settings.apiUrl, { retries: 0, timeoutMs: 10_000 }).auth.test();
    results.push(pass('Slack bot token', `@${me.user} in ${me.team} (bot user ${me.user_id})`));
  } catch (error) {
    return [describe('Slack bot token', error, where, 'Copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions into SLACK_BOT_TOKEN.')];
  }
  if (settings.appToken) {
    try {
      await slackClient(settings.appToken, settings.apiUrl, { retries: 0, timeoutMs: 10_000 }).apps.connections.open();
      results.push(pass('Slack app token', 'Socket Mode can connect'));
    } catch (error) {
      results.push(
        describe(
          'Slack app token',
          error,
          where,
          'Create an app-level token with connections:write (Basic Information → App-Level Tokens) into SLACK_APP_TOKEN, and turn Socket Mode on.',
        ),
      );
    }
  } else results.push(pass('Slack events', 'the Events API at <BRIDGE_WEB_ADDR>/slack/events, checked with SLACK_SIGNING_SECRET'));
  return results;
}

function describe(subject: string, error: unknown, where: string, fix: string): CheckResult {
  const code = platformError(error);
  if (isTokenRefusal(error)) return fail(subject, `refused by Slack (${code})`, fix);
  return code
    ? fail(subject, `Slack answered ${code}`, 'Check the network, a proxy, or SLACK_API_URL.')
    : unreachable(subject, `Slack (${where})`, error, 'SLACK_API_URL');
}
