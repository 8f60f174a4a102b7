import { ConfigError } from '../../kernel/errors/config-error.ts';
import type { TransportSources } from '../../kernel/ports/transport.ts';

/** The Mattermost transport's settings: its own variables, read by nothing else. */
export interface MattermostSettings {
  /** The server's address, without a trailing slash (`https://chat.example.com`). */
  url?: string;
  /** A bot account's access token. */
  token?: string;
  /** The token of the slash command an operator registered for the bridge: its uses are taken only with it. */
  commandToken?: string;
  /** Where the server sends button presses: the bridge's web server (BRIDGE_WEB_URL, or BRIDGE_WEB_ADDR); none: no buttons. */
  actionsUrl?: string;
}

export type ReadyMattermostSettings = MattermostSettings & { url: string; token: string };

/** The routes on the web server that take the presses of the bridge's buttons, and the uses of its slash command. */
export const ACTIONS_PATH = '/mattermost/actions';
export const COMMAND_PATH = '/mattermost/command';

export const TOKEN_HOW = 'make a bot account (System Console → Integrations → Bot Accounts → Add Bot Account) and copy its access token into MATTERMOST_TOKEN';

export function mattermostSettings({ env }: Pick<TransportSources, 'env'>): MattermostSettings {
  const value = (name: string) => env[name]?.trim() || undefined;
  const url = value('MATTERMOST_URL')?.replace(/\/+$/, '');
  const token = value('MATTERMOST_TOKEN');
  const commandToken = value('MATTERMOST_COMMAND_TOKEN');
  const web = value('BRIDGE_WEB_URL') ?? (value('BRIDGE_WEB_ADDR') ? `http://${value('BRIDGE_WEB_ADDR')}` : undefined);
  return {
    url,
    token,
    commandToken,
    ...(web ? { actionsUrl: `${web.replace(/\/+$/, '')}${ACTIONS_PATH}` } : {}),
  };
}

/** What is wrong with the settings as written, said without the token's value; none: nothing. */
export function settingsProblems(settings: MattermostSettings): string[] {
  const problems: string[] = [];
  if (!settings.url) problems.push("MATTERMOST_URL is not set: set it to your Mattermost server's address, like https://chat.example.com");
  else if (!/^https?:\/\/[^/\s]+/.test(settings.url))
    problems.push(`MATTERMOST_URL: expected the server's address, like https://chat.example.com, got "${settings.url}"`);
  if (!settings.token) problems.push(`MATTERMOST_TOKEN is not set: ${TOKEN_HOW}`);
  else if (!/^[a-z0-9]{26}$/.test(settings.token))
    problems.push(
      `MATTERMOST_TOKEN: expected a bot's access token (26 lowercase letters and digits), got ${settings.token.length} characters that are not one`,
    );
  return problems;
}

/** The settings a running bot needs; a ConfigError naming the variable otherwise. */
export function requireMattermost(settings: MattermostSettings): ReadyMattermostSettings {
  const [problem] = settingsProblems(settings);
  if (problem) throw new ConfigError(problem);
  if (settings.commandToken && !settings.actionsUrl)
    throw new ConfigError('MATTERMOST_COMMAND_TOKEN: the slash command comes to the web server: set BRIDGE_WEB_ADDR too');
  return settings as ReadyMattermostSettings;
}
