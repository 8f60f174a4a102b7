import { createClient } from 'matrix-js-sdk';
import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { errcodeOf } from './client.ts';
import type { MatrixIdentity } from './incoming.ts';
import { TOKEN_HOW, type ReadyMatrixSettings } from './settings.ts';

/** Waits between attempts double from 1 s up to this. */
const MAX_WAIT_S = 60;

/** The token's account, asked of the homeserver once (`GET /account/whoami`), with its display name. */
export async function whoAmI(settings: ReadyMatrixSettings): Promise<MatrixIdentity> {
  const client = createClient({ baseUrl: settings.homeserverUrl, accessToken: settings.accessToken });
  const { user_id: userId } = await client.whoami();
  const profile = await client.getProfileInfo(userId).catch(() => undefined);
  return { userId, ...(profile?.displayname ? { displayName: profile.displayname } : {}) };
}

/** Why the homeserver refused the token, when it did: M_UNKNOWN_TOKEN (logged out, or never its), M_FORBIDDEN. */
export function refusal(error: unknown): string | undefined {
  const code = errcodeOf(error);
  if (code === 'M_UNKNOWN_TOKEN' || code === 'M_MISSING_TOKEN')
    return `the homeserver refused MATRIX_ACCESS_TOKEN (${code}: logged out, or not a token of it): ${TOKEN_HOW}`;
  if (code === 'M_FORBIDDEN' || code === 'M_USER_DEACTIVATED') return `the homeserver refused the bot's account (${code}): is it deactivated or locked?`;
  return undefined;
}

/**
 * The bot's account, from the homeserver: asked until it answers (a line per failed attempt,
 * backing off: a homeserver may boot after the bridge), and a refusal at once when the token is.
 */
export async function reachMatrix(
  settings: ReadyMatrixSettings,
  where: string,
  log: Log,
  wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<MatrixIdentity> {
  for (let attempt = 1; ; attempt++) {
    try {
      const me = await whoAmI(settings);
      if (attempt > 1) log.info(`Matrix (${where}) answered; starting`);
      return me;
    } catch (error) {
      const refused = refusal(error);
      if (refused) throw new TransportRefusedError(`Matrix: ${refused}, and start again.`);
      const seconds = Math.min(MAX_WAIT_S, 2 ** (attempt - 1));
      log.warn(`Matrix (${where}) is unreachable: ${(error as Error).message}; trying again in ${seconds} s (attempt ${attempt})`);
      await wait(seconds * 1000);
    }
  }
}
