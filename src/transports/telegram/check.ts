import { Api, GrammyError, HttpError } from 'grammy';
import { fail, firstLine, pass } from '../../kernel/ports/check-result.ts';
import { tokenProblem, type TelegramSettings } from './settings.ts';
import type { CheckResult } from '../../kernel/ports/check-result.ts';

const COPY_TOKEN = "Copy the bot's token from @BotFather (/mybots → your bot → API Token) into TELEGRAM_BOT_TOKEN.";

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
    if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404))
      return [fail('Telegram token', `refused by Telegram (${error.error_code})`, COPY_TOKEN)];
    const why = error instanceof HttpError ? String((error.error as Error)?.message ?? error.error) : firstLine(String(error));
    return [fail('Telegram token', `Telegram (${new URL(apiRoot).host}) is unreachable: ${why}`, 'Check the network, a proxy, or TELEGRAM_API_ROOT.')];
  }
}
