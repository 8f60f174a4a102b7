import { createInterface } from 'node:readline';
import type { Bridge } from '../bridge/bridge.ts';

/** The console's one chat and its one user: the owner at the keyboard. */
export const CONSOLE_ADDRESS = { chatId: 0 };

/**
 * Reads the terminal a line at a time: each line is a message from the owner, in the same
 * chat, with the same commands as Telegram. At the end of input (a script piped in), it
 * waits for the last turn to be answered, then resolves.
 */
export async function runConsole(bridge: Bridge, input: NodeJS.ReadableStream, ownerId: number): Promise<void> {
  const lines = createInterface({ input, terminal: false });
  for await (const line of lines) {
    if (!line.trim()) continue;
    await bridge.handleMessage({ address: CONSOLE_ADDRESS, user: { id: ownerId, name: 'owner' }, text: line });
  }
  await bridge.idle();
}
