import { chatRef, type ChatRef, type MessageRef } from '../../kernel/ports/chat.ts';

/** Telegram's transport id: what its chats' refs carry, and what a bare number means where a person writes a chat or user. */
export const TELEGRAM = 'telegram';

/** Telegram's chat id (and the topic's, in a forum) as the bridge's ChatRef. */
export function telegramChat(chatId: number, threadId?: number): ChatRef {
  return chatRef(TELEGRAM, chatId, threadId);
}

/** The Bot API's numbers of a ref the bridge hands back: ids are numbers on Telegram. */
export function chatIdOf(ref: ChatRef): number {
  return Number(ref.chat);
}

export function threadIdOf(ref: ChatRef): number | undefined {
  return ref.thread === undefined ? undefined : Number(ref.thread);
}

export function messageIdOf(ref: Pick<MessageRef, 'messageId'>): number {
  return Number(ref.messageId);
}
