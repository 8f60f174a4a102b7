import { createInterface } from 'node:readline';
import type { TransportHost } from '../ports/chat-transport.ts';
import type { ConsoleOutbound } from './outbound.ts';
import { chatRef, type ChatRef } from '../ports/transport.ts';
import { plain } from '../rich/index.ts';

/** The console's transport id. */
export const CONSOLE = 'console';

/** The console's one chat: the terminal (chat 0, as it was when ids were numbers). */
export const CONSOLE_ADDRESS: ChatRef = chatRef(CONSOLE, 0);

/**
 * Reads the terminal a line at a time: each line is a message from the owner (a trailing
 * backslash continues it on the next line), in the same chat, with the same commands as
 * in a chat app, and `/press <n>` for the buttons the console prints numbered. At the end of
 * input (a script piped in), it waits until every turn, subagent and orchestration has ended
 * and been reported.
 */
export async function runConsole(host: TransportHost, out: ConsoleOutbound, input: NodeJS.ReadableStream): Promise<void> {
  // Its one user: the owner at the keyboard.
  const user = { id: 'owner', name: 'owner' };
  const lines = createInterface({ input, terminal: false });
  let pending: string[] = [];
  for await (const line of lines) {
    // A line ending in a backslash continues on the next: multi-line messages (plans, tasks).
    if (line.endsWith('\\')) {
      pending.push(line.slice(0, -1));
      continue;
    }
    const text = [...pending, line].join('\n');
    pending = [];
    if (!text.trim()) continue;
    const press = /^\/press\s+(\d+)\s*$/.exec(text.trim());
    if (press) {
      const button = out.button(Number(press[1]));
      const answer = button
        ? await host.handleButton({ address: CONSOLE_ADDRESS, user, data: button.data, messageId: button.messageId })
        : { text: `No button [${press[1]}].` };
      await out.send(CONSOLE_ADDRESS, plain(answer.text));
      continue;
    }
    await host.handleMessage({ address: CONSOLE_ADDRESS, user, text, private: true });
  }
  await host.idle();
}
