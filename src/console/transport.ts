import { join } from 'node:path';
import type { Transport, TransportKind } from '../ports/chat-transport.ts';
import { onePersonChats } from '../ports/chat-members.ts';
import { CONSOLE, runConsole } from './console.ts';
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
      greet({ defaultCli, workdir, logFile }) {
        console.error(`jsonl-bridge console: ${defaultCli} in ${workdir}. Type a message, or /help. Ctrl-D ends. The log is in ${logFile}.`);
      },
    };
  },
};

export default consoleTransport;
