import { sendMeter } from '../../services/telemetry/metrics-chat-apps.ts';
import { GrammyError, InlineKeyboard, InputFile, type Api } from 'grammy';
import type { ReactionTypeEmoji } from 'grammy/types';
import { basename } from 'node:path';
import {
  ChatUnreachableError,
  type Button,
  type ChatRef,
  type EditOptions,
  type MessageFit,
  type MessageRef,
  type Outbound,
  type OutgoingFile,
  type Picture,
  type RichText,
  type SendOptions,
} from '../../kernel/ports/chat.ts';
import { TELEGRAM_CAPABILITIES, TELEGRAM_FIT } from './capabilities.ts';
import { truncate } from '../../work/presentation/format/index.ts';
import { plainText } from '../../kernel/rich/index.ts';
import { renderHtml } from './format/html.ts';
import { SendBudget, type ChatLimit } from '../../kernel/concurrency/send-budget.ts';
import { chatIdOf, messageIdOf, TELEGRAM, threadIdOf } from './id.ts';
import { sentRef } from '../serving/app-outbound.ts';

/**
 * The bridge's Outbound over the Bot API. HTML first; if Telegram rejects the markup, the
 * same words again as plain text. Each chat's calls keep to its send budget; a 429 that gets
 * through anyway, and network errors, are retried below this by the auto-retry transformer.
 */
export class TelegramOutbound implements Outbound {
  constructor(
    private readonly api: Api,
    /** Every call waits its chat's turn: Telegram's per-chat limits, answers before progress edits. */
    private readonly budget = new SendBudget({ limits: telegramLimit, retryAfter: floodWait, meter: sendMeter(TELEGRAM) }),
  ) {}

  send(to: ChatRef, text: RichText, options: SendOptions = {}): Promise<MessageRef> {
    return this.call(to.chat, 'message', () => this.sendNow(to, text, options));
  }

  edit(ref: MessageRef, text: RichText, options: EditOptions = {}): Promise<boolean> {
    return this.call(ref.chat, options.urgent ? 'message' : 'edit', () => this.editNow(ref, text, options), `${ref.chat}:${ref.messageId}`);
  }

  async react(message: MessageRef, emoji: string): Promise<void> {
    // Within the chat's budget, behind new messages: a burst of steers must not hold up an answer.
    await this.call(
      message.chat,
      'edit',
      () => this.api.setMessageReaction(chatIdOf(message), messageIdOf(message), [{ type: 'emoji', emoji: emoji as ReactionTypeEmoji['emoji'] }]),
      `reaction:${message.chat}:${message.messageId}`,
    );
  }

  sendDocument(to: ChatRef, document: { filename: string; content: string; caption?: RichText }, options: SendOptions = {}): Promise<MessageRef> {
    const file = () => new InputFile(Buffer.from(document.content, 'utf8'), document.filename);
    return this.call(to.chat, 'message', () => this.upload(to, 'document', file, document.caption, options));
  }

  sendFile(to: ChatRef, file: OutgoingFile, options: SendOptions = {}): Promise<MessageRef> {
    return this.call(to.chat, 'message', () => this.sendFileNow(to, file, options));
  }

  /** A photo: counted as a new message. */
  sendPicture(to: ChatRef, picture: Picture, options: SendOptions = {}): Promise<MessageRef> {
    const file = () => new InputFile(picture.png, picture.filename);
    return this.call(to.chat, 'message', () => this.upload(to, 'photo', file, picture.caption, options));
  }

  /** editMessageMedia with a new upload: an edit, so it waits behind new messages and a newer one replaces it while it waits. */
  editPicture(ref: MessageRef, picture: Picture): Promise<boolean> {
    return this.call(ref.chat, 'edit', () => this.editPictureNow(ref, picture), `${ref.chat}:${ref.messageId}`);
  }

  /** Within the chat's budget; Telegram refusing the chat for good is said the core's way. */
  private call<T>(chat: string, priority: 'message' | 'edit', run: () => Promise<T>, mergeKey?: string): Promise<T> {
    return this.budget.schedule(chat, priority, run, mergeKey).catch((error: unknown) => {
      throw isUnreachable(error) ? new ChatUnreachableError(error.description, { cause: error }) : error;
    });
  }

  crowded(to: ChatRef): boolean {
    return this.budget.crowded(to.chat);
  }

  capabilities() {
    return TELEGRAM_CAPABILITIES;
  }

  fit(): MessageFit {
    return TELEGRAM_FIT;
  }

  private async sendNow(to: ChatRef, text: RichText, options: SendOptions): Promise<MessageRef> {
    const base = { ...sending(to, options), link_preview_options: { is_disabled: true } };
    const sent = await htmlOrPlain(text, TELEGRAM_CAPABILITIES.messageChars, (html, parse_mode) =>
      this.api.sendMessage(chatIdOf(to), html!, { ...base, parse_mode }),
    );
    return sentRef(to, String(sent.message_id), sent.message_id);
  }

  private editNow(ref: MessageRef, text: RichText, options: EditOptions): Promise<boolean> {
    const markup = { reply_markup: keyboard(options.buttons ?? []) };
    return htmlOrPlain(text, TELEGRAM_CAPABILITIES.messageChars, (html, parse_mode) =>
      this.api.editMessageText(
        chatIdOf(ref),
        messageIdOf(ref),
        html!,
        parse_mode ? { ...markup, parse_mode, link_preview_options: { is_disabled: true } } : markup,
      ),
    ).then(() => true, unlessHarmless);
  }

  private editPictureNow(ref: MessageRef, picture: Picture): Promise<boolean> {
    return htmlOrPlain(picture.caption, TELEGRAM_CAPABILITIES.captionChars, (caption, parse_mode) =>
      this.api.editMessageMedia(chatIdOf(ref), messageIdOf(ref), { type: 'photo', media: new InputFile(picture.png, picture.filename), caption, parse_mode }),
    ).then(() => true, unlessHarmless);
  }

  private async sendFileNow(to: ChatRef, file: OutgoingFile, options: SendOptions): Promise<MessageRef> {
    const input = () => new InputFile(file.content ?? file.path, file.filename ?? basename(file.path));
    if (file.as === 'document') return this.upload(to, 'document', input, file.caption, options);
    try {
      return await this.upload(to, 'photo', input, file.caption, options);
    } catch (error) {
      // Telegram shows only some images as photos (size, dimensions, format): the rest go as documents.
      if (!(error instanceof GrammyError && error.error_code === 400 && /PHOTO|IMAGE|dimensions|too big/i.test(error.description))) throw error;
      return this.upload(to, 'document', input, file.caption, options);
    }
  }

  /** A document or photo with its caption: HTML first, the plain caption if Telegram refuses the markup. */
  private async upload(to: ChatRef, as: 'document' | 'photo', file: () => InputFile, caption: RichText | undefined, options: SendOptions): Promise<MessageRef> {
    const sent = await htmlOrPlain<{ message_id: number }>(caption, TELEGRAM_CAPABILITIES.captionChars, (text, parse_mode) => {
      const extra = { ...sending(to, options), caption: text, parse_mode };
      return as === 'photo' ? this.api.sendPhoto(chatIdOf(to), file(), extra) : this.api.sendDocument(chatIdOf(to), file(), extra);
    });
    // A chat's message ids go up, people's and the bot's alike.
    return sentRef(to, String(sent.message_id), sent.message_id);
  }
}

/**
 * How many calls one chat may take in a window, as Telegram asks: one message a second in a
 * private chat, twenty a minute in a group. Edits, documents and chat actions count like
 * messages. Users' chat ids are positive, groups' and channels' negative.
 */
function telegramLimit(chat: string): ChatLimit {
  return Number(chat) > 0 ? { max: 1, windowMs: 1000 } : { max: 20, windowMs: 60_000 };
}

/** Where a new message goes (its topic), what it replies to, and its buttons. */
function sending(to: ChatRef, options: SendOptions) {
  const threadId = threadIdOf(to);
  return {
    ...(threadId !== undefined ? { message_thread_id: threadId } : {}),
    ...(options.replyTo !== undefined ? { reply_parameters: { message_id: Number(options.replyTo), allow_sending_without_reply: true } } : {}),
    ...(options.buttons?.length ? { reply_markup: keyboard(options.buttons) } : {}),
  };
}

/**
 * Sent with `text` as HTML; when Telegram refuses the markup (or its length as marked up), again
 * with the same words as plain text, cut to `chars`. No text: sent once, without.
 */
function htmlOrPlain<T>(text: RichText | undefined, chars: number, send: (text?: string, parse_mode?: 'HTML') => Promise<T>): Promise<T> {
  if (!text) return send();
  return send(renderHtml(text), 'HTML').catch((error: unknown) => {
    if (!isMarkupRejection(error)) throw error;
    return send(truncate(plainText(text), chars));
  });
}

function keyboard(rows: Button[][]): InlineKeyboard {
  return InlineKeyboard.from(
    rows.map((row) =>
      row.map((b) =>
        b.opens ? (b.opens.inApp ? InlineKeyboard.webApp(b.text, b.opens.url) : InlineKeyboard.url(b.text, b.opens.url)) : InlineKeyboard.text(b.text, b.data),
      ),
    ),
  );
}

/** Telegram refused the formatting (or its length as formatted): plain text will do. */
function isMarkupRejection(error: unknown): boolean {
  return (
    error instanceof GrammyError && error.error_code === 400 && /can't parse entities|message is too long|caption is too long|entities/i.test(error.description)
  );
}

/** The bot was removed or blocked, the chat is gone, or it may not write there. */
function isUnreachable(error: unknown): error is GrammyError {
  return (
    error instanceof GrammyError &&
    (error.error_code === 403 || (error.error_code === 400 && /chat not found|bot was kicked|CHAT_WRITE_FORBIDDEN|have no rights/i.test(error.description)))
  );
}

/** An edit that failed harmlessly (nothing changed, or the user deleted the message) is done: true, or false when the message is no longer there. */
function unlessHarmless(error: unknown): boolean {
  const gone = /message to edit not found|MESSAGE_ID_INVALID/i;
  if (!(error instanceof GrammyError && error.error_code === 400 && (/message is not modified/i.test(error.description) || gone.test(error.description))))
    throw error;
  return !gone.test(error.description);
}

/** A 429's `retry_after`: how long Telegram wants this chat left alone. */
function floodWait(error: unknown): number | undefined {
  return error instanceof GrammyError && error.error_code === 429 ? (error.parameters.retry_after ?? 1) : undefined;
}
