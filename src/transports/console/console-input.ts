import { on } from 'node:events';
import { createInterface, emitKeypressEvents } from 'node:readline';

/** Turns the terminal's bracketed paste on (a paste then comes between ESC[200~ and ESC[201~), and off. */
const PASTE_ON = '\x1b[?2004h';
const PASTE_OFF = '\x1b[?2004l';

/**
 * The messages typed into the console, whole. Piped input is a message a line; on a terminal,
 * the line is edited here (raw mode, readline's editing and history), so no line limit of the
 * terminal's own line discipline (4,095 characters) cuts it, and a bracketed paste is part of
 * one message however many lines it has, sent with the Enter after it. Either way a line
 * ending in a backslash goes on on the next line. Ctrl-C is the signal it is in a shell.
 */
export async function* consoleMessages(input: NodeJS.ReadableStream, terminal?: NodeJS.WritableStream): AsyncGenerator<string> {
  const tty = terminal !== undefined && (input as NodeJS.ReadStream).isTTY === true;
  let pasting = false;
  if (tty) {
    // Before readline's own listener: a line that ends inside a paste is known as pasted when readline hands it over.
    emitKeypressEvents(input);
    input.on('keypress', (_text: string | undefined, key: { name?: string } | undefined) => {
      if (key?.name === 'paste-start') pasting = true;
      else if (key?.name === 'paste-end') pasting = false;
    });
  }
  const reader = createInterface({ input, ...(tty ? { output: terminal, terminal: true, prompt: '' } : { terminal: false }) });
  // Whether each line was pasted, as it came: the lines themselves wait in `on`'s queue.
  const pastedLines: boolean[] = [];
  reader.on('line', () => pastedLines.push(pasting));
  const pasteOff = () => terminal?.write(PASTE_OFF);
  if (tty) {
    reader.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
    terminal.write(PASTE_ON);
    process.once('exit', pasteOff);
  }
  try {
    let pending: string[] = [];
    for await (const [line] of on(reader, 'line', { close: ['close'] }) as AsyncIterable<[string]>) {
      const pasted = pastedLines.shift()!;
      if (pasted || line.endsWith('\\')) {
        pending.push(pasted ? line : line.slice(0, -1));
        continue;
      }
      const text = [...pending, line].join('\n');
      pending = [];
      yield text;
    }
    // A paste or a continued line the input ended after is still a message.
    if (pending.length) yield pending.join('\n');
  } finally {
    if (tty) {
      pasteOff();
      process.off('exit', pasteOff);
    }
    reader.close();
  }
}
