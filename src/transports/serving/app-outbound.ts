import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { megabytes } from '../../engine/files/sizes.ts';
import { SendBudget, type ChatLimit } from '../../kernel/concurrency/send-budget.ts';
import type { ChatRef, MessageRef, OutgoingFile, Picture, RichText, SendOptions } from '../../kernel/ports/chat.ts';
import type { ChatCapabilities, MessageFit } from '../../kernel/ports/capabilities.ts';
import { sendMeter } from '../../services/telemetry/metrics-chat-apps.ts';
import { plainText } from '../../kernel/rich/index.ts';
import { truncate } from '../../work/presentation/format/index.ts';
import { escapeMarkdown, renderMarkdown } from '../../work/presentation/format/markdown.ts';

/** A file on its way to a chat: a document the bridge wrote, a file from disk, or a picture it drew (a PNG). */
export interface Upload {
  name: string;
  bytes: Buffer;
  kind: 'document' | 'file' | 'picture';
}

/**
 * What the outbounds of the apps that take a file as its bytes share: their capabilities and
 * fit, a document, a file and a picture going as one upload, and each chat's calls keeping to
 * the app's send budget (`limit` a chat, a 429 waited out as `retryAfter` reads it), counted
 * where the app counts them (its channel, room or conversation: `placeOf`).
 */
export abstract class AppOutbound {
  protected readonly budget: SendBudget;
  /** The capabilities with commands written `@name status`, for the bot's name last asked. */
  private named: ChatCapabilities | undefined;

  constructor(
    transport: string,
    private readonly own: ChatCapabilities,
    private readonly fits: MessageFit,
    limit: ChatLimit,
    retryAfter?: (error: unknown) => number | undefined,
  ) {
    this.budget = new SendBudget({ limits: () => limit, retryAfter, meter: sendMeter(transport) });
  }

  protected abstract upload(to: ChatRef, file: Upload, caption: RichText | undefined, options: SendOptions): Promise<MessageRef>;

  /** Where the app counts a chat's calls: the budget's key. */
  protected placeOf(to: ChatRef): string {
    return to.chat;
  }

  capabilities(_to?: ChatRef): ChatCapabilities {
    return this.own;
  }

  fit(): MessageFit {
    return this.fits;
  }

  /** Its capabilities with its commands written `@name status`, made once for each name the bot has; no name: its own. */
  protected namedAs(name: string | undefined): ChatCapabilities {
    if (!name) return this.own;
    if (this.named?.commandPrefix !== `@${name} `) this.named = Object.freeze({ ...this.own, commandPrefix: `@${name} ` });
    return this.named;
  }

  sendDocument(to: ChatRef, document: { filename: string; content: string; caption?: RichText }, options: SendOptions = {}): Promise<MessageRef> {
    return this.upload(to, { name: document.filename, bytes: Buffer.from(document.content, 'utf8'), kind: 'document' }, document.caption, options);
  }

  async sendFile(to: ChatRef, file: OutgoingFile, options: SendOptions = {}): Promise<MessageRef> {
    return this.upload(to, { name: file.filename ?? basename(file.path), bytes: await bytesOf(file), kind: 'file' }, file.caption, options);
  }

  sendPicture(to: ChatRef, picture: Picture, options: SendOptions = {}): Promise<MessageRef> {
    return this.upload(to, { name: picture.filename, bytes: Buffer.from(picture.png), kind: 'picture' }, picture.caption, options);
  }

  crowded(to: ChatRef): boolean {
    return this.budget.crowded(this.placeOf(to));
  }

  /** A new message (or a call counted as one), within its chat's budget. */
  protected message<T>(to: ChatRef, run: () => Promise<T>): Promise<T> {
    return this.budget.schedule(this.placeOf(to), 'message', run);
  }

  /**
   * An edit of a message: behind new messages (unless `urgent`), and a newer edit of the same
   * message replaces one still waiting.
   */
  protected edited<T>(ref: MessageRef, run: () => Promise<T>, urgent = false): Promise<T> {
    return this.budget.schedule(this.placeOf(ref), urgent ? 'message' : 'edit', run, `${ref.chat}:${ref.messageId}`);
  }

  /** A reaction on a message: behind new messages, as a burst of steers must not hold up an answer. */
  protected reacted<T>(ref: MessageRef, run: () => Promise<T>, emoji = ''): Promise<T> {
    return this.budget.schedule(this.placeOf(ref), 'edit', run, `reaction:${ref.chat}:${ref.messageId}${emoji}`);
  }
}

/** What the bridge keeps of a message it sent: where it is, and its place in its chat's order where the app's ids give one. */
export function sentRef(to: ChatRef, messageId: string, order?: number): MessageRef {
  return { ...to, messageId, ...(order !== undefined ? { order } : {}) };
}

/** An edit made; one of a message that is gone (deleted, or no longer the bot's to edit: `gone` knows the app's errors) is no error, only false. */
export function unlessGone(edit: () => Promise<unknown>, gone: (error: unknown) => boolean): Promise<boolean> {
  return edit().then(
    () => true,
    (error: unknown) => {
      if (gone(error)) return false;
      throw error;
    },
  );
}

/** The emoji the bridge reacts with, by the names chat apps give them in their emoji codes (`own`: where an app's differ). */
export function emojiNames(own: Readonly<Record<string, string>> = {}): Readonly<Record<string, string>> {
  return { '👀': 'eyes', '👍': '+1', '✅': 'white_check_mark', '❌': 'x', '⏳': 'hourglass_flowing_sand', '🤔': 'thinking', ...own };
}

/** A file's bytes: read afresh from where it was opened, or from its path. */
function bytesOf(file: OutgoingFile): Promise<Buffer> {
  return file.content ? buffer(file.content()) : readFile(file.path);
}

/** A file larger than the app takes is refused before anything is sent: `where` says whose limit it is. */
export function checkSize(file: Upload, limit: number, where: string): void {
  if (file.bytes.length > limit) throw new Error(`${file.name} is ${megabytes(file.bytes.length)}, over the ${megabytes(limit)} ${where}`);
}

/** A message's Markdown within `chars`; plain words (escaped, cut) when the Markdown would not fit. */
export function markdownWithin(text: RichText, chars: number): string {
  const markdown = renderMarkdown(text);
  return markdown.length <= chars ? markdown : truncate(escapeMarkdown(plainText(text)), chars);
}
