import type { CallbackQuery, Message, MessageEntity } from 'grammy/types';
import { toBotApiMessage } from './message-view.ts';
import { postMessage, queueCallbackQuery, type ActionDeps, type MessageOptions, type PressButtonOptions } from './user-actions.ts';
import { unixNow } from './world.ts';
import type { UpdatePayload } from './update-queue.ts';

/**
 * What a modified client can make Telegram pass on, and the official apps never send: any
 * entities on any text (offsets past its end, overlapping), blank text, a reply to a message
 * that is gone, callback data no button of the message carries, an edit of an old message.
 * The bot must cope with all of it; the fuzz test sends it.
 */

export interface ForgedTextOptions extends Omit<MessageOptions, 'replyTo'> {
  /** Sent as it is: not trimmed, not parsed for entities. */
  readonly text: string;
  readonly entities?: readonly MessageEntity[];
  /** A message of the chat, or an id that exists nowhere: the update then carries a stub of it. */
  readonly replyTo?: number;
}

export function forgeText(deps: ActionDeps, options: ForgedTextOptions): Message {
  const { replyTo, entities = [], ...rest } = options;
  const exists = replyTo !== undefined && deps.world.message(options.chatId, replyTo) !== undefined;
  return postMessage(
    deps,
    { ...rest, ...(exists && { replyTo }) },
    'forgeText',
    { content: { text: options.text, entities: [...entities] }, document: undefined },
    (message) =>
      replyTo === undefined || exists
        ? message
        : // What Telegram embeds for a message it no longer has: its id, its chat, date 0.
          { ...message, reply_to_message: { message_id: replyTo, chat: message.chat, date: 0 } as Message['reply_to_message'] },
  );
}

export interface EditTextOptions {
  readonly chatId: number;
  readonly messageId: number;
  readonly userId: number;
  readonly text: string;
}

/** The user edits their message; the bot receives an `edited_message` update if it asked for them. */
export function editText(deps: ActionDeps, options: EditTextOptions): Message {
  const record = deps.world.message(options.chatId, options.messageId);
  if (!record || record.fromBot || record.from.id !== options.userId) {
    throw new Error(`editText: user ${options.userId} has no message ${options.messageId} in chat ${options.chatId}`);
  }
  record.history.push({ kind: 'text', content: record.content, replyMarkup: record.replyMarkup, replacedAt: Date.now() });
  record.content = record.content.caption !== undefined ? { ...record.content, caption: options.text } : { text: options.text, entities: [] };
  record.editDate = unixNow();
  const message = toBotApiMessage(deps.world, record);
  deps.updates.push({ edited_message: message as Message & { edit_date: number } } as UpdatePayload);
  deps.changes.notify();
  return message;
}

/** A press with any callback data on any message of the chat, buttons or not. */
export function forgeButtonPress(deps: ActionDeps, options: PressButtonOptions): CallbackQuery {
  const record = deps.world.message(options.chatId, options.messageId);
  if (!record) throw new Error(`forgeButtonPress: message ${options.messageId} does not exist in chat ${options.chatId}`);
  return queueCallbackQuery(deps, options, record);
}
