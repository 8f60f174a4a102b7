import { ConfigError } from '../../kernel/errors/config-error.ts';
import type { TransportSources } from '../../kernel/ports/transport.ts';

/** The Telegram transport's settings: its own variables, read by nothing else. */
export interface TelegramSettings {
  token?: string;
  apiRoot: string;
}

export function telegramSettings({ env }: Pick<TransportSources, 'env'>): TelegramSettings {
  return {
    ...(env.TELEGRAM_BOT_TOKEN?.trim() ? { token: env.TELEGRAM_BOT_TOKEN.trim() } : {}),
    apiRoot: (env.TELEGRAM_API_ROOT?.trim() || 'https://api.telegram.org').replace(/\/+$/, ''),
  };
}

/** The settings a running bot needs: a token above all. */
export function requireToken(settings: TelegramSettings): Required<TelegramSettings> {
  if (!settings.token)
    throw new ConfigError(
      'TELEGRAM_BOT_TOKEN is not set: set it to your bot token from @BotFather, or run `npm start -- --console` to use the bridge in this terminal.',
    );
  const malformed = tokenProblem(settings.token);
  if (malformed) throw new ConfigError(`TELEGRAM_BOT_TOKEN: ${malformed}`);
  return { token: settings.token, apiRoot: settings.apiRoot };
}

/**
 * What is wrong with a value that is no bot token (@BotFather's are the bot's id, a colon and
 * a secret of 35 letters, digits, `_` and `-`: 123456789:AAE…), said without the value: it is
 * never sent to Telegram, where it would show in a request's URL.
 */
export function tokenProblem(token: string): string | undefined {
  if (/^\d{1,20}:[\w-]{35}$/.test(token)) return undefined;
  return `expected the token @BotFather gave your bot (its id, a colon, then 35 letters, digits, _ or -: 123456789:AAE…), got ${token.length} characters that are not one`;
}
