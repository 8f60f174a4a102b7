import { Api, GrammyError, HttpError } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { roundTrip, untilAnswered } from '../serving/reach.ts';
import type { TelegramSettings } from './settings.ts';

/** How long one getMe takes now: Telegram's round trip, for /status. Asked without retries, which would hide a slow answer. */
export function telegramRoundTrip({ token, apiRoot }: Required<TelegramSettings>): () => Promise<number> {
  const api = new Api(token, { apiRoot });
  return roundTrip(() => api.getMe());
}

/**
 * The bot's identity, from Telegram: asked until Telegram answers (untilAnswered), and a
 * TransportRefusedError at once when Telegram refuses the token. Asked without the bot's
 * auto-retry, which would retry in silence.
 */
export function reachTelegram({ token, apiRoot }: Required<TelegramSettings>, log: Log, wait?: (ms: number) => Promise<unknown>): Promise<UserFromGetMe> {
  const api = new Api(token, { apiRoot });
  return untilAnswered(`Telegram (${new URL(apiRoot).host})`, () => api.getMe(), {
    log,
    wait,
    refusal: (error) =>
      error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)
        ? new TransportRefusedError(
            `Telegram refused TELEGRAM_BOT_TOKEN (${error.error_code} ${error.description.replace(/^[^:]*: /, '')}): copy the bot's token from @BotFather (/mybots → your bot → API Token) and set it again.`,
          )
        : undefined,
    why: (error) =>
      error instanceof HttpError
        ? ((error.error as Error).message ?? String(error.error))
        : error instanceof GrammyError
          ? `${error.error_code} ${error.description}`
          : String(error),
  });
}
