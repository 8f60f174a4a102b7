import { join } from 'node:path';
import type { BridgeGreeting, Transport, TransportKind } from '../../kernel/ports/transport.ts';
import { onePersonChats } from '../../kernel/ports/chat-members.ts';
import { CONSOLE_ADDRESS, runConsole } from './console.ts';
import { CONSOLE } from '../../kernel/known-transports.ts';
import { ConsoleOutbound } from './outbound.ts';

/**
 * This terminal: one chat, one user (the owner at the keyboard), plain text out, documents
 * saved under the data directory. It has no settings, and ends with its input.
 */
export const consoleTransport: TransportKind = {
  id: CONSOLE,
  check: async () => [],
  create({ dataDir }): Transport {
    const out = new ConsoleOutbound((text) => process.stdout.write(text), join(dataDir, 'console'));
    return {
      id: CONSOLE,
      everyoneIsOwner: true,
      secrets: [],
      out,
      // Its one chat is the person's at the keyboard.
      members: onePersonChats((_chat, person) => person.startsWith(`${CONSOLE}:`)),
      async connect() {},
      serve: (host) => runConsole(host, out, process.stdin, process.stdout),
      // The end of input ends it; a signal ends the process.
      async stop() {},
      inTerminal: true,
      greet(bridge) {
        console.error(consoleGreeting(bridge));
      },
    };
  },
};

/**
 * The console's first lines: the CLI and folder its chat works with (its own choice, kept
 * across restarts, or the bridge's default, said as such), what to do, and where the log and
 * the web pages are.
 */
export function consoleGreeting({ chosen, defaultCli, workdir, logFile, webUrl }: BridgeGreeting): string {
  const chat = chosen(CONSOLE_ADDRESS);
  const cli = chat ? chat.cli : `${defaultCli} (the default; /cli changes it)`;
  const lines = [`jsonl-bridge console: ${cli} in ${chat?.workdir ?? workdir}. Type a message, or /help. Ctrl-D ends. The log is in ${logFile}.`];
  if (webUrl) lines.push(`The dashboard and the web chat are at ${webUrl}; /dashboard gives a login link.`);
  return lines.join('\n');
}

export default consoleTransport;
