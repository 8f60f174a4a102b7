import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { fail, pass, warn, type CheckResult } from '../../kernel/ports/check-result.ts';
import { MattermostApi, statusOf } from './client.ts';
import { settingsProblems, TOKEN_HOW, type MattermostSettings } from './settings.ts';
import { untilAnswered, unreachable } from '../serving/reach.ts';

/** Who the bot is on its server. */
export interface MattermostIdentity {
  id: string;
  username: string;
}

/**
 * The bot's account, from the server (`GET /users/me`): asked until it answers (untilAnswered),
 * and a refusal at once when the token is refused (401) or the account may not use the API (403).
 */
export function reachMattermost(api: MattermostApi, where: string, log: Log): Promise<MattermostIdentity> {
  return untilAnswered(
    `Mattermost (${where})`,
    async () => {
      const me = await api.call<MattermostIdentity>('get', '/users/me');
      return { id: me.id, username: me.username };
    },
    {
      log,
      refusal: (error) => {
        const status = statusOf(error);
        if (status === 401) return new TransportRefusedError(`Mattermost refused MATTERMOST_TOKEN (401 Unauthorized): ${TOKEN_HOW}, and start again.`);
        if (status === 403)
          return new TransportRefusedError(
            `Mattermost refused the bot's account (403): enable it, or its access tokens (System Console → Integrations → Bot Accounts).`,
          );
        return undefined;
      },
    },
  );
}

/** The settings, the token asked of the server once (`GET /users/me`), and where the buttons' presses come. */
export async function checkMattermost(settings: MattermostSettings): Promise<CheckResult[]> {
  const [problem] = settingsProblems(settings);
  if (problem) return [fail('Mattermost', problem, `Set MATTERMOST_URL and MATTERMOST_TOKEN: ${TOKEN_HOW}.`)];
  const api = new MattermostApi({ url: settings.url!, token: settings.token! }, 0);
  const buttons = settings.actionsUrl
    ? pass('Mattermost buttons', `presses come to ${settings.actionsUrl} (the server must be allowed to reach it: AllowedUntrustedInternalConnections)`)
    : warn(
        'Mattermost buttons',
        'none: their presses come to the web server, which is off',
        'Set BRIDGE_WEB_ADDR (and BRIDGE_WEB_URL as the Mattermost server reaches it).',
      );
  try {
    const me = await api.call<{ id: string; username: string; is_bot?: boolean }>('get', '/users/me');
    return [
      pass('Mattermost token', `@${me.username} (id ${me.id})`),
      ...(me.is_bot === false
        ? [warn('Mattermost account', 'a person’s account, not a bot’s', 'Use a bot account: its posts are marked BOT, and it holds no password.')]
        : []),
      buttons,
    ];
  } catch (error) {
    const status = statusOf(error);
    if (status === 401) return [fail('Mattermost token', 'refused by the server (401)', `${TOKEN_HOW[0]!.toUpperCase()}${TOKEN_HOW.slice(1)}.`)];
    return [unreachable('Mattermost token', `Mattermost (${new URL(settings.url!).host})`, error, 'MATTERMOST_URL')];
  }
}
