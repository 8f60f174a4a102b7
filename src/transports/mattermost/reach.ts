import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { statusOf, type MattermostApi } from './client.ts';
import { TOKEN_HOW } from './settings.ts';
import { untilAnswered } from '../serving/reach.ts';

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
      const me = await api.get<MattermostIdentity>('/users/me');
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
