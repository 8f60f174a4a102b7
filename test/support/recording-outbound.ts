import type { Button, ChatCapabilities, ChatRef, MessageFit, MessageRef, Outbound, OutgoingFile, RichText, SendOptions } from '../../src/kernel/ports/chat.ts';
import { plainText } from '../../src/kernel/rich/index.ts';
import { TELEGRAM_CAPABILITIES, TELEGRAM_FIT } from '../../src/transports/telegram/capabilities.ts';
import { renderHtml } from '../format/support/telegram.ts';

export interface Sent {
  to: ChatRef;
  messageId: string;
  text: string;
  /** As Telegram would be sent it. */
  html: string;
  buttons: Button[][];
  document?: { filename: string; content: string };
  file?: OutgoingFile;
  edits: string[];
}

/** An in-memory Outbound for unit tests, fitting text to messages as Telegram does; can be told to fail the next calls. */
export class RecordingOutbound implements Outbound {
  readonly sent: Sent[] = [];
  private failures: Error[] = [];
  private nextId = 1;

  /** The next `count` sends throw this error. */
  failNext(error: Error, count = 1): void {
    for (let i = 0; i < count; i++) this.failures.push(error);
  }

  async send(to: ChatRef, text: RichText, options: SendOptions = {}): Promise<MessageRef> {
    this.maybeFail();
    const messageId = String(this.nextId++);
    this.sent.push({ to, messageId, text: plainText(text), html: renderHtml(text), buttons: options.buttons ?? [], edits: [] });
    return { ...to, messageId };
  }

  async edit(ref: MessageRef, text: RichText): Promise<boolean> {
    const sent = this.sent.find((s) => s.messageId === ref.messageId);
    sent?.edits.push(plainText(text));
    return sent !== undefined;
  }

  async sendDocument(to: ChatRef, document: { filename: string; content: string; caption?: RichText }, options: SendOptions = {}): Promise<MessageRef> {
    this.maybeFail();
    const messageId = String(this.nextId++);
    this.sent.push({
      to,
      messageId,
      text: document.caption ? plainText(document.caption) : '',
      html: document.caption ? renderHtml(document.caption) : '',
      buttons: options.buttons ?? [],
      document,
      edits: [],
    });
    return { ...to, messageId };
  }

  async sendFile(to: ChatRef, file: OutgoingFile, options: SendOptions = {}): Promise<MessageRef> {
    this.maybeFail();
    const messageId = String(this.nextId++);
    this.sent.push({
      to,
      messageId,
      text: file.caption ? plainText(file.caption) : '',
      html: file.caption ? renderHtml(file.caption) : '',
      buttons: options.buttons ?? [],
      file,
      edits: [],
    });
    return { ...to, messageId };
  }

  /** A chat app with Telegram's limits, the tightest of the transports the bridge began with. */
  capabilities(): ChatCapabilities {
    return TELEGRAM_CAPABILITIES;
  }

  fit(): MessageFit {
    return TELEGRAM_FIT;
  }

  /** What the chat shows now: each message's latest edit, or its text. */
  shownTo(chatId: number | string): string[] {
    return this.sent.filter((s) => s.to.chat === String(chatId)).map((s) => s.edits.at(-1) ?? s.text);
  }

  textsTo(chatId: number | string): string[] {
    return this.sent.filter((s) => s.to.chat === String(chatId)).map((s) => s.text);
  }

  private maybeFail(): void {
    const failure = this.failures.shift();
    if (failure) throw failure;
  }
}

/**
 * A RecordingOutbound whose sends that `held` picks (all, by default) wait until `release`, as a
 * flood limit or a retry would hold them; what it sends is numbered in order (`order`), as a
 * chat app numbers a chat's messages.
 */
export class HeldOutbound extends RecordingOutbound {
  release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));

  constructor(private readonly held: (text: string) => boolean = () => true) {
    super();
  }

  override async send(to: ChatRef, text: RichText, options: SendOptions = {}): Promise<MessageRef> {
    if (this.held(plainText(text))) await this.gate;
    const ref = await super.send(to, text, options);
    return { ...ref, order: Number(ref.messageId) };
  }
}
