import type { TransportKind } from './ports/chat-transport.ts';
import { consoleTransport } from './console/transport.ts';
import { discord } from './discord/transport.ts';
import { telegram } from './telegram/transport.ts';

/** Every transport the bridge can run, in the order `npm run doctor` checks them. */
export const TRANSPORTS: readonly TransportKind[] = [telegram, discord, consoleTransport];

/**
 * The transport `npm start` runs: this terminal with `--console`; Discord when only its token is
 * set; Telegram otherwise.
 */
export function chooseTransport(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): TransportKind {
  if (argv.includes('--console')) return consoleTransport;
  return discord.configured(env) && !env.TELEGRAM_BOT_TOKEN?.trim() ? discord : telegram;
}
