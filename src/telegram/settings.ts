import { ConfigError } from '../errors/config-error.ts';
import type { TransportSources } from '../ports/chat-transport.ts';

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
  return { token: settings.token, apiRoot: settings.apiRoot };
}
