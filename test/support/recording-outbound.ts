import type { Button, ChatRef, MessageRef, Outbound, OutgoingFile, RichText, SendOptions } from '../../src/ports/transport.ts';

export interface Sent {
  to: ChatRef;
  messageId: string;
  text: string;
  html: string;
  buttons: Button[][];
  document?: { filename: string; content: string };
  file?: OutgoingFile;
  edits: string[];
}

/** An in-memory Outbound for unit tests; can be told to fail the next calls. */
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
    this.sent.push({ to, messageId, text: text.plain, html: text.html, buttons: options.buttons ?? [], edits: [] });
    return { ...to, messageId };
  }

  async edit(ref: MessageRef, text: RichText): Promise<boolean> {
    const sent = this.sent.find((s) => s.messageId === ref.messageId);
    sent?.edits.push(text.plain);
    return sent !== undefined;
  }

  async sendDocument(to: ChatRef, document: { filename: string; content: string; caption?: RichText }, options: SendOptions = {}): Promise<MessageRef> {
    this.maybeFail();
    const messageId = String(this.nextId++);
    this.sent.push({
      to,
      messageId,
      text: document.caption?.plain ?? '',
      html: document.caption?.html ?? '',
      buttons: options.buttons ?? [],
      document,
      edits: [],
    });
    return { ...to, messageId };
  }

  async sendFile(to: ChatRef, file: OutgoingFile, options: SendOptions = {}): Promise<MessageRef> {
    this.maybeFail();
    const messageId = String(this.nextId++);
    this.sent.push({ to, messageId, text: file.caption?.plain ?? '', html: file.caption?.html ?? '', buttons: options.buttons ?? [], file, edits: [] });
    return { ...to, messageId };
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
