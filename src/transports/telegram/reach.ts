import { Api, GrammyError, HttpError } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { fail, firstLine, pass, type CheckResult } from '../../kernel/ports/check-result.ts';
import { roundTrip, untilAnswered } from '../serving/reach.ts';
import { tokenProblem, type TelegramSettings } from './settings.ts';

const COPY_TOKEN = "Copy the bot's token from @BotFather (/mybots → your bot → API Token) into TELEGRAM_BOT_TOKEN.";

/** Telegram refused the token (401, or 404 for a token of no bot): nothing will work until it is changed. */
function refused(error: unknown): error is GrammyError {
  return error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404);
}

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
      refused(error)
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

/** The token, asked of Telegram once (getMe), and what the bot's group privacy setting lets it see. */
export async function checkTelegram({ token, apiRoot }: TelegramSettings): Promise<CheckResult[]> {
  if (!token)
    return [
      fail(
        'Telegram token',
        'TELEGRAM_BOT_TOKEN is not set',
        'Set it to the token @BotFather gave your bot; for the console alone (npm start -- --console), which needs none, check with npm run doctor -- --console.',
      ),
    ];
  const malformed = tokenProblem(token);
  if (malformed) return [fail('Telegram token', `TELEGRAM_BOT_TOKEN: ${malformed}`, COPY_TOKEN)];
  const api = new Api(token, { apiRoot });
  try {
    const me = await api.getMe();
    return [
      pass('Telegram token', `@${me.username} (id ${me.id})`),
      pass(
        'group privacy',
        me.can_read_all_group_messages
          ? 'off: in groups the bot sees every message'
          : 'on: in groups the bot sees commands, replies to it and mentions only (@BotFather → /setprivacy → Disable lets plain messages reach it)',
      ),
    ];
  } catch (error) {
    if (refused(error)) return [fail('Telegram token', `refused by Telegram (${error.error_code})`, COPY_TOKEN)];
    const why = error instanceof HttpError ? String((error.error as Error)?.message ?? error.error) : firstLine(String(error));
    return [fail('Telegram token', `Telegram (${new URL(apiRoot).host}) is unreachable: ${why}`, 'Check the network, a proxy, or TELEGRAM_API_ROOT.')];
  }
}
