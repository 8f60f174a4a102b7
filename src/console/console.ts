import { createInterface } from 'node:readline';
import type { App } from '../app.ts';

/** The console's one chat and its one user: the owner at the keyboard. */
export const CONSOLE_ADDRESS = { chatId: 0 };

/**
 * Reads the terminal a line at a time: each line is a message from the owner (a trailing
 * backslash continues it on the next line), in the same
 * chat, with the same commands as Telegram. At the end of input (a script piped in), it
 * waits until every turn, subagent and orchestration has ended and been reported.
 */
export async function runConsole(app: App, input: NodeJS.ReadableStream, ownerId: number): Promise<void> {
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
    await app.bridge.handleMessage({ address: CONSOLE_ADDRESS, user: { id: ownerId, name: 'owner' }, text });
  }
  await app.idle();
}
