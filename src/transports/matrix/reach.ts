import { createClient } from 'matrix-js-sdk';
import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { fail, pass, type CheckResult } from '../../kernel/ports/check-result.ts';
import { errcodeOf } from './client.ts';
import type { MatrixIdentity } from './incoming.ts';
import { requireMatrix, settingsProblems, TOKEN_HOW, type MatrixSettings, type ReadyMatrixSettings } from './settings.ts';
import { untilAnswered, unreachable } from '../serving/reach.ts';

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

/** The bot's account, from the homeserver: asked until it answers (untilAnswered), and a refusal at once when the token is. */
export function reachMatrix(settings: ReadyMatrixSettings, where: string, log: Log): Promise<MatrixIdentity> {
  return untilAnswered(`Matrix (${where})`, () => whoAmI(settings), {
    log,
    refusal: (error) => {
      const refused = refusal(error);
      return refused ? new TransportRefusedError(`Matrix: ${refused}, and start again.`) : undefined;
    },
  });
}

/** The settings, and the token asked of the homeserver once (`GET /account/whoami`). */
export async function checkMatrix(settings: MatrixSettings): Promise<CheckResult[]> {
  const [problem] = settingsProblems(settings);
  if (problem) return [fail('Matrix', problem, `Set MATRIX_HOMESERVER_URL and MATRIX_ACCESS_TOKEN: ${TOKEN_HOW}.`)];
  const ready = requireMatrix(settings);
  try {
    const me = await whoAmI(ready);
    return [pass('Matrix token', `${me.userId}${me.displayName ? ` (${me.displayName})` : ''}`)];
  } catch (error) {
    const refused = refusal(error);
    if (refused) return [fail('Matrix token', refused, 'Log the bot in again and copy its new access token.')];
    return [unreachable('Matrix token', `the homeserver (${new URL(ready.homeserverUrl).host})`, error, 'MATRIX_HOMESERVER_URL')];
  }
}
