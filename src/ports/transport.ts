/**
 * What the bridge needs from a chat transport (Telegram, the console), and what a transport
 * hands the bridge. Nothing here knows grammY.
 */

/** A chat, or one forum topic of it: each has its own agent session. */
export interface ChatAddress {
  chatId: number;
  threadId?: number;
}

/** A chat, or the topic of one when there is a thread id. */
export function chatAddress(chatId: number, threadId?: number): ChatAddress {
  return threadId === undefined ? { chatId } : { chatId, threadId };
}

export function chatKey(address: ChatAddress): string {
  return address.threadId === undefined ? String(address.chatId) : `${address.chatId}:${address.threadId}`;
}

export interface MessageRef extends ChatAddress {
  messageId: number;
}

/** Rich text with its plain-text twin, for when the transport cannot (or will not) render it. */
export interface RichText {
  html: string;
  plain: string;
}

export interface Button {
  text: string;
  /** At most 64 bytes (Telegram's callback_data limit). */
  data: string;
}

export interface SendOptions {
  buttons?: Button[][];
  replyTo?: number;
}

export interface Outbound {
  send(to: ChatAddress, text: RichText, options?: SendOptions): Promise<MessageRef>;
  /** Edits a sent message. A "not modified" or vanished message is not an error. */
  edit(ref: MessageRef, text: RichText, options?: { buttons?: Button[][] }): Promise<void>;
  sendDocument(to: ChatAddress, document: { filename: string; content: string; caption?: RichText }, options?: SendOptions): Promise<MessageRef>;
}

export interface ChatUser {
  id: number;
  name?: string;
}

export interface IncomingMessage {
  address: ChatAddress;
  user: ChatUser;
  text: string;
  messageId?: number;
  /** The message this one replies to, when it does (the context of a /spawn). */
  replyTo?: { text: string; from?: string };
}

export interface ButtonPress {
  address: ChatAddress;
  user: ChatUser;
  data: string;
  messageId: number;
}

/** The answer to a button press, shown as a toast. */
export type ButtonAnswer = { text: string; alert?: boolean };
