import type { TransportHost } from '../../kernel/ports/transport.ts';
import type { ConsoleOutbound } from './outbound.ts';
import { chatRef, type ChatRef } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import { consoleMessages } from './console-input.ts';
import { CONSOLE } from '../../kernel/known-transports.ts';

/** The console's one chat: the terminal (chat 0, as it was when ids were numbers). */
export const CONSOLE_ADDRESS: ChatRef = chatRef(CONSOLE, 0);

/**
 * The longest message the console takes: past it, a message is refused with its length, never
 * cut (a log that long belongs in a file the agent is told to read).
 */
export const MAX_CONSOLE_MESSAGE = 100_000;

/**
 * Reads the terminal a message at a time (see consoleMessages: a line, a paste, or lines joined
 * by a trailing backslash): each is a message from the owner, in the same chat, with the same
 * commands as in a chat app, and `/press <n>` for the buttons the console prints numbered. At
 * the end of input (a script piped in), it waits until every turn, subagent and orchestration
 * has ended and been reported.
 */
export async function runConsole(host: TransportHost, out: ConsoleOutbound, input: NodeJS.ReadableStream, terminal?: NodeJS.WritableStream): Promise<void> {
  // Its one user: the owner at the keyboard.
  const user = { id: 'owner', name: 'owner' };
  for await (const text of consoleMessages(input, terminal)) {
    if (!text.trim()) continue;
    if (text.length > MAX_CONSOLE_MESSAGE) {
      await out.send(CONSOLE_ADDRESS, plain(tooLong(text.length)));
      continue;
    }
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

function tooLong(length: number): string {
  const count = (n: number) => n.toLocaleString('en-US');
  return `Not sent: this message is ${count(length)} characters, and the console takes at most ${count(MAX_CONSOLE_MESSAGE)} in one. Save it to a file and ask the agent to read the file.`;
}
