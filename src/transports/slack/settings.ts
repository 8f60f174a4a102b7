import { ConfigError } from '../../kernel/errors/config-error.ts';
import type { TransportSources } from '../../kernel/ports/transport.ts';

/** The Slack transport's settings: its own variables, read by nothing else. */
export interface SlackSettings {
  botToken?: string;
  appToken?: string;
  signingSecret?: string;
  /** The Web API root, ending in `/`. */
  apiUrl: string;
}

/** How Slack reaches the bridge: Socket Mode (an app token), or the Events API over the web server (a signing secret). */
export type SlackReceiving = { mode: 'socket'; appToken: string } | { mode: 'events'; signingSecret: string };

export interface ReadySlackSettings {
  botToken: string;
  apiUrl: string;
  receiving: SlackReceiving;
}

const DEFAULT_API_URL = 'https://slack.com/api/';

export function slackSettings({ env }: Pick<TransportSources, 'env'>): SlackSettings {
  const value = (name: string) => env[name]?.trim() || undefined;
  const botToken = value('SLACK_BOT_TOKEN');
  const appToken = value('SLACK_APP_TOKEN');
  const signingSecret = value('SLACK_SIGNING_SECRET');
  return {
    botToken,
    appToken,
    signingSecret,
    apiUrl: (value('SLACK_API_URL') ?? DEFAULT_API_URL).replace(/\/*$/, '/'),
  };
}

/** What is wrong with the tokens as written, said without their values; none: nothing. */
export function tokenProblems(settings: SlackSettings): string[] {
  const problems: string[] = [];
  if (!settings.botToken) problems.push("SLACK_BOT_TOKEN is not set: set it to the app's Bot User OAuth Token (xoxb-…, OAuth & Permissions)");
  else if (!/^xoxb-[\w-]{10,}$/.test(settings.botToken))
    problems.push(`SLACK_BOT_TOKEN: expected the app's bot token (xoxb-…, OAuth & Permissions), got ${settings.botToken.length} characters that are not one`);
  if (settings.appToken && !/^xapp-[\w-]{10,}$/.test(settings.appToken))
    problems.push(
      `SLACK_APP_TOKEN: expected an app-level token (xapp-…, Basic Information → App-Level Tokens, scope connections:write), got ${settings.appToken.length} characters that are not one`,
    );
  if (!settings.appToken && !settings.signingSecret)
    problems.push(
      'SLACK_APP_TOKEN is not set: set it to an app-level token (xapp-…, Basic Information → App-Level Tokens, scope connections:write) for Socket Mode, or SLACK_SIGNING_SECRET for the Events API on BRIDGE_WEB_ADDR',
    );
  try {
    new URL(settings.apiUrl);
  } catch {
    problems.push(`SLACK_API_URL: "${settings.apiUrl}" is not a URL`);
  }
  return problems;
}

/** The settings a running app needs; a ConfigError naming the variable otherwise. */
export function requireSlack(settings: SlackSettings): ReadySlackSettings {
  const [problem] = tokenProblems(settings);
  if (problem) throw new ConfigError(problem);
  return {
    botToken: settings.botToken!,
    apiUrl: settings.apiUrl,
    receiving: settings.appToken ? { mode: 'socket', appToken: settings.appToken } : { mode: 'events', signingSecret: settings.signingSecret! },
  };
}
