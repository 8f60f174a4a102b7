import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Button, ChatRef, MessageRef, Outbound, OutgoingFile, Picture, RichText, SendOptions } from '../../kernel/ports/chat.ts';
import { plain, plainText } from '../../kernel/rich/index.ts';
import { OWN_CHAT_CAPABILITIES, WHOLE_MESSAGE_FIT, type ChatCapabilities, type MessageFit } from '../../kernel/ports/capabilities.ts';

/** What the terminal can do: no message limit; documents and pictures are saved to files, and buttons are numbered. */
export const CONSOLE_CAPABILITIES: ChatCapabilities = OWN_CHAT_CAPABILITIES;

/** How often a message that shows nothing new prints its clock again: a clock frozen at 0:00 reads as a hang. */
const CLOCK_EVERY_MS = 15_000;

/**
 * The terminal as a chat: messages are printed as plain text. An edited message prints only
 * its lines that are new, so progress reads as a log: a line that differs from one printed
 * only in a clock (`working · 0:05`, then `· 0:10`) is no news (see sameButTime), but once a
 * message has shown nothing new for CLOCK_EVERY_MS its clock is printed again; documents and
 * pictures are saved to files, and files sent are shown by their paths.
 */
export class ConsoleOutbound implements Outbound {
  private nextId = 1;
  /** Each message's lines as last printed, by what they say whatever the time, and when it last printed one. */
  private readonly printed = new Map<string, { lines: Map<string, string>; at: number }>();
  /** Buttons by the number printed beside them, for `/press <n>`. */
  private readonly buttons = new Map<number, { messageId: string; data: string }>();
  private nextButton = 1;
  /** Where each picture sent is saved: an edit writes the new one over it. */
  private readonly pictures = new Map<string, string>();

  constructor(
    private readonly write: (text: string) => void,
    private readonly documentsDir: string,
  ) {}

  async send(_to: ChatRef, text: RichText, options: SendOptions = {}): Promise<MessageRef> {
    const messageId = String(this.nextId++);
    const shown = plainText(text);
    this.printed.set(messageId, { lines: new Map(shown.split('\n').map((line) => [sameButTime(line), line])), at: Date.now() });
    this.write(shown + this.buttonHint(messageId, options.buttons) + '\n');
    return { ..._to, messageId };
  }

  /** The button printed with number `n`, if there was one. */
  button(n: number): { messageId: string; data: string } | undefined {
    return this.buttons.get(n);
  }

  /**
   * A Stop button is /stop; any other is numbered, to be pressed with `/press <n>` (the
   * console has no buttons to tap: an approval in `ask` mode is answered this way).
   */
  private buttonHint(messageId: string, rows: Button[][] | undefined): string {
    const links = (rows?.flat() ?? []).filter((button) => button.opens);
    const all = (rows?.flat() ?? []).filter((button) => !button.opens);
    const others = all.filter((button) => !button.data.startsWith('stop:'));
    const opened = links.map((button) => `\n${button.text}: ${button.opens!.url}`).join('');
    if (opened) return opened + this.buttonHint(messageId, [all]);
    const hints = others.map((button) => {
      const n = this.nextButton++;
      this.buttons.set(n, { messageId, data: button.data });
      return `[${n}] ${button.text}`;
    });
    if (hints.length) return `\n${hints.join('   ')}   (/press <n>)`;
    return all.length ? '   (/stop to stop)' : '';
  }

  async edit(ref: MessageRef, text: RichText): Promise<boolean> {
    const now = Date.now();
    const shown = this.printed.get(ref.messageId) ?? { lines: new Map<string, string>(), at: now };
    const lines = plainText(text).split('\n');
    let fresh = lines.filter((line) => !shown.lines.has(sameButTime(line)));
    if (!fresh.length && now - shown.at >= CLOCK_EVERY_MS) fresh = lines.filter((line) => shown.lines.get(sameButTime(line)) !== line).slice(0, 1);
    for (const line of fresh) shown.lines.set(sameButTime(line), line);
    if (fresh.length) {
      shown.at = now;
      this.write(fresh.join('\n') + '\n');
    }
    this.printed.set(ref.messageId, shown);
    return true;
  }

  async sendDocument(to: ChatRef, document: { filename: string; content: string; caption?: RichText }): Promise<MessageRef> {
    await mkdir(this.documentsDir, { recursive: true });
    const path = join(this.documentsDir, `${Date.now()}-${document.filename}`);
    await writeFile(path, document.content, { mode: 0o600 });
    return this.send(to, plain(`${document.caption ? plainText(document.caption) : ''}\n📎 ${document.filename} saved to ${path}`.trim()));
  }

  /** The file is already on this machine: its path is what the person at the keyboard needs. */
  async sendFile(to: ChatRef, file: OutgoingFile): Promise<MessageRef> {
    return this.send(to, plain(`${file.caption ? plainText(file.caption) : ''}\n📎 ${file.path}`.trim()));
  }

  /** Saved as a PNG file beside the documents; the chat is shown its path (and caption). */
  async sendPicture(to: ChatRef, picture: Picture): Promise<MessageRef> {
    await mkdir(this.documentsDir, { recursive: true });
    const path = join(this.documentsDir, `${Date.now()}-${picture.filename}`);
    await writeWhole(path, picture.png);
    const ref = await this.send(to, plain(`${picture.caption ? plainText(picture.caption) : ''}\n🖼 ${path}`.trim()));
    this.pictures.set(ref.messageId, path);
    return ref;
  }

  /** The new picture replaces the file in one step (an image viewer never reads half of one); nothing is printed. */
  async editPicture(ref: MessageRef, picture: Picture): Promise<boolean> {
    const path = this.pictures.get(ref.messageId);
    if (!path) return false;
    await writeWhole(path, picture.png);
    return true;
  }

  capabilities(): ChatCapabilities {
    return CONSOLE_CAPABILITIES;
  }

  fit(): MessageFit {
    return WHOLE_MESSAGE_FIT;
  }
}

/** Written beside, then renamed over: whoever reads `path` sees the old file or the new one. */
async function writeWhole(path: string, bytes: Uint8Array): Promise<void> {
  const partial = `${path}.partial`;
  await writeFile(partial, bytes, { mode: 0o600 });
  await rename(partial, path);
}

/** A line with its durations and clock times (0:05, 1:02:03) blanked: what it says, whatever the time. */
function sameButTime(line: string): string {
  return line.replace(/\b\d+:\d{2}(?::\d{2})?\b/g, '…');
}
