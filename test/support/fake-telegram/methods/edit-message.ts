import { isDeepStrictEqual } from 'node:util';
import type { InlineKeyboardMarkup, Message } from 'grammy/types';
import { badRequest } from '../api-error.ts';
import { toBotApiMessage } from '../message-view.ts';
import { readInlineMarkup } from '../reply-markup.ts';
import { unixNow, type MessageContent, type MessageRecord } from '../world.ts';
import type { MethodContext } from './context.ts';
import { readMessageText } from './message-text.ts';
import { resolveChat } from './targets.ts';

export const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';

/** The bot's own message to edit, looked up in the given chat only. */
export function editableMessage(ctx: MethodContext): MessageRecord {
  if (ctx.params.has('inline_message_id')) {
    throw badRequest('inline messages are not supported by the fake Telegram server');
  }
  const chat = resolveChat(ctx);
  const messageId = ctx.params.integer('message_id');
  if (messageId === undefined) throw badRequest('message identifier is not specified');
  const record = ctx.world.message(chat.chat.id, messageId);
  if (!record) throw badRequest('message to edit not found');
  if (!record.fromBot) throw badRequest("message can't be edited");
  return record;
}

function applyEdit(record: MessageRecord, kind: 'text' | 'reply_markup', content: MessageContent, replyMarkup: InlineKeyboardMarkup | undefined): void {
  record.history.push({ kind, content: record.content, replyMarkup: record.replyMarkup, replacedAt: Date.now() });
  record.content = content;
  record.replyMarkup = replyMarkup;
}

export function editMessageText(ctx: MethodContext): Message {
  const { params } = ctx;
  const { source, parseMode, formatted } = readMessageText(ctx, 'MESSAGE_TOO_LONG');
  // Leaving reply_markup out removes the keyboard, as in Telegram.
  const markup = readInlineMarkup(params);

  const record = editableMessage(ctx);
  if (record.content.text === undefined) throw badRequest('there is no text in the message to edit');
  const sameText = record.content.text === formatted.text && isDeepStrictEqual([...record.content.entities], [...formatted.entities]);
  if (sameText && isDeepStrictEqual(record.replyMarkup, markup)) throw badRequest(NOT_MODIFIED);

  applyEdit(record, 'text', { text: formatted.text, entities: formatted.entities, source, ...(parseMode && { parseMode }) }, markup);
  record.editDate = unixNow();
  return toBotApiMessage(ctx.world, record);
}

export function editMessageReplyMarkup(ctx: MethodContext): Message {
  const markup = readInlineMarkup(ctx.params);
  const record = editableMessage(ctx);
  if (isDeepStrictEqual(record.replyMarkup, markup)) throw badRequest(NOT_MODIFIED);
  applyEdit(record, 'reply_markup', record.content, markup);
  return toBotApiMessage(ctx.world, record);
}
