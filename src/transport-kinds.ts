import type { TransportKind } from './ports/chat-transport.ts';
import { consoleTransport } from './console/transport.ts';
import { telegram } from './telegram/transport.ts';

/** Every transport the bridge can run, in the order `npm run doctor` checks them. */
export const TRANSPORTS: readonly TransportKind[] = [telegram, consoleTransport];

/** The transport `npm start` runs: Telegram, or this terminal with `--console`. */
export function chooseTransport(argv: readonly string[]): TransportKind {
  return argv.includes('--console') ? consoleTransport : telegram;
}
