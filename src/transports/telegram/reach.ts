import { Api, GrammyError, HttpError } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { TelegramSettings } from './settings.ts';

/** Telegram refused the token: nothing will work until it is changed. */
export class TokenRefusedError extends TransportRefusedError {
  override name = 'TokenRefusedError';
}

/** How long one getMe takes now: Telegram's round trip, for /status. Asked without retries, which would hide a slow answer. */
export function telegramRoundTrip({ token, apiRoot }: Required<TelegramSettings>): () => Promise<number> {
  const api = new Api(token, { apiRoot });
  return async () => {
    const start = performance.now();
    await api.getMe();
    return performance.now() - start;
  };
}

/** Waits between attempts double from 1 s up to this. */
const MAX_WAIT_S = 60;

/**
 * The bot's identity, from Telegram: asked until Telegram answers, a line per failed
 * attempt (with capped backoff, forever: a server that boots before its network must still
 * come up), and a TokenRefusedError at once when Telegram refuses the token. Asked without
 * the bot's auto-retry, which would retry in silence.
 */
export async function reachTelegram(
  { token, apiRoot }: Required<TelegramSettings>,
  log: Log,
  wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<UserFromGetMe> {
  const api = new Api(token, { apiRoot });
  const where = new URL(apiRoot).host;
  for (let attempt = 1; ; attempt++) {
    try {
      const me = await api.getMe();
      if (attempt > 1) log.info(`Telegram (${where}) answered; starting`);
      return me;
    } catch (error) {
      if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) {
        throw new TokenRefusedError(
          `Telegram refused TELEGRAM_BOT_TOKEN (${error.error_code} ${error.description.replace(/^[^:]*: /, '')}): copy the bot's token from @BotFather (/mybots → your bot → API Token) and set it again.`,
        );
      }
      const seconds = Math.min(MAX_WAIT_S, 2 ** (attempt - 1));
      const why =
        error instanceof HttpError
          ? ((error.error as Error).message ?? String(error.error))
          : error instanceof GrammyError
            ? `${error.error_code} ${error.description}`
            : String(error);
      log.warn(`Telegram (${where}) is unreachable: ${why}; trying again in ${seconds} s (attempt ${attempt})`);
      await wait(seconds * 1000);
    }
  }
}
