import { fail, pass } from '../../kernel/ports/check-result.ts';
import { unreachable } from '../serving/reach.ts';
import type { CheckResult } from '../../kernel/ports/check-result.ts';
import { isTokenRefusal, platformError, slackClient } from './client.ts';
import { tokenProblems, type SlackSettings } from './settings.ts';

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
