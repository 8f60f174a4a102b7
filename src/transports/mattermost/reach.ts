import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { statusOf, type MattermostApi } from './client.ts';
import { TOKEN_HOW } from './settings.ts';

/** Who the bot is on its server. */
export interface MattermostIdentity {
  id: string;
  username: string;
}

/** Waits between attempts double from 1 s up to this. */
const MAX_WAIT_S = 60;

/**
 * The bot's account, from the server (`GET /users/me`): asked until it answers (a line per
 * failed attempt, backing off: a server may boot before its network), and a refusal at once
 * when the token is refused (401) or the account may not use the API (403).
 */
export async function reachMattermost(
  api: MattermostApi,
  where: string,
  log: Log,
  wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<MattermostIdentity> {
  for (let attempt = 1; ; attempt++) {
    try {
      const me = await api.get<MattermostIdentity>('/users/me');
      if (attempt > 1) log.info(`Mattermost (${where}) answered; starting`);
      return { id: me.id, username: me.username };
    } catch (error) {
      const status = statusOf(error);
      if (status === 401) throw new TransportRefusedError(`Mattermost refused MATTERMOST_TOKEN (401 Unauthorized): ${TOKEN_HOW}, and start again.`);
      if (status === 403)
        throw new TransportRefusedError(
          `Mattermost refused the bot's account (403): enable it, or its access tokens (System Console → Integrations → Bot Accounts).`,
        );
      const seconds = Math.min(MAX_WAIT_S, 2 ** (attempt - 1));
      log.warn(`Mattermost (${where}) is unreachable: ${(error as Error).message}; trying again in ${seconds} s (attempt ${attempt})`);
      await wait(seconds * 1000);
    }
  }
}
