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
  const lines: { line: string; pasted: boolean }[] = [];
  let ended = false;
  let wake = (): void => {};
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
  reader.on('line', (line: string) => {
    lines.push({ line, pasted: pasting });
    wake();
  });
  reader.on('close', () => {
    ended = true;
    wake();
  });
  const pasteOff = () => terminal?.write(PASTE_OFF);
  if (tty) {
    reader.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
    terminal.write(PASTE_ON);
    process.once('exit', pasteOff);
  }
  try {
    let pending: string[] = [];
    for (;;) {
      const next = lines.shift();
      if (!next) {
        if (ended) break;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      const { line, pasted } = next;
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
