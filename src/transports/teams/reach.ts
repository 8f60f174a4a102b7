import type { ConfidentialClientApplication } from '@azure/msal-node';
import type { Log } from '../../kernel/log/logger.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { appToken } from './auth.ts';

/** Waits between attempts double from 1 s up to this. */
const MAX_WAIT_S = 60;

/** Microsoft Entra's answers that say the app's credentials are wrong, not that it is away. */
const REFUSALS = /invalid_client|unauthorized_client|invalid_request|AADSTS7000215|AADSTS700016|AADSTS90002/;

/**
 * The app's token, asked until Microsoft Entra answers (a line per failed attempt, capped
 * backoff: a server may boot before its network); a TransportRefusedError at once when it
 * refuses the app's credentials.
 */
export async function reachTeams(login: ConfidentialClientApplication, log: Log, wait = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await appToken(login);
      if (attempt > 1) log.info('Microsoft Entra answered; starting');
      return;
    } catch (error) {
      const message = String((error as Error).message ?? error);
      if (REFUSALS.test(message) || REFUSALS.test(String((error as { errorCode?: string }).errorCode)))
        throw new TransportRefusedError(
          `Microsoft Entra refused the Teams app's credentials (${message.split('\n')[0]}): check TEAMS_APP_ID, TEAMS_APP_PASSWORD (a client secret's value, not its id) and TEAMS_TENANT_ID`,
        );
      const seconds = Math.min(MAX_WAIT_S, 2 ** (attempt - 1));
      log.warn(`Microsoft Entra is unreachable: ${message.split('\n')[0]}; trying again in ${seconds} s (attempt ${attempt})`);
      await wait(seconds * 1000);
    }
  }
}
