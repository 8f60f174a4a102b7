import type { Frame } from '../rich/edit.ts';
import type { RichText } from '../rich/model.ts';

/**
 * What the bridge needs from a chat transport (a chat app, the console), and what a transport
 * hands the bridge. Nothing here knows a transport's library.
 */

export type { RichText };

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

export interface Button {
  text: string;
  /** At most 64 bytes (the smallest limit a transport puts on a button's payload). */
  data: string;
}

export interface SendOptions {
  buttons?: Button[][];
  replyTo?: number;
}

/**
 * Sending to chats. Text is the core's rich text; each transport renders it (its markup, or
 * plain text) and says how much of it one message holds.
 */
export interface Outbound {
  send(to: ChatAddress, text: RichText, options?: SendOptions): Promise<MessageRef>;
  /**
   * Edits a sent message. A "not modified" or vanished message is not an error: the answer
   * says whether the message is there showing the text (false: someone deleted it).
   */
  edit(ref: MessageRef, text: RichText, options?: { buttons?: Button[][] }): Promise<boolean>;
  /** Text the bridge made (a long answer, a log) as a document. */
  sendDocument(to: ChatAddress, document: { filename: string; content: string; caption?: RichText }, options?: SendOptions): Promise<MessageRef>;
  /** A file from disk: as a photo (shown inline) or a document. */
  sendFile(to: ChatAddress, file: OutgoingFile, options?: SendOptions): Promise<MessageRef>;
  /**
   * The messages `text` takes here, each within this transport's limit (cut between blocks,
   * then lines, then words): `header` opens the first and `footer` closes the last.
   */
  split(text: RichText, frame?: Frame): RichText[];
  /** The opening of a long text sent as a document, for its caption; none where the transport shows none. */
  preview(text: RichText): RichText | undefined;
}

export interface OutgoingFile {
  path: string;
  /**
   * The file's bytes from where it was opened and checked, read afresh by each attempt: set,
   * the path is only its name, never opened again (it may be something else by now).
   */
  content?: () => AsyncIterable<Uint8Array>;
  /** The name the chat sees; the path's own by default. */
  filename?: string;
  as: 'photo' | 'document';
  caption?: RichText;
}

/** A file that came with a message, not yet fetched: the transport's handle and what it said about it. */
export interface Attachment {
  kind: 'document' | 'photo' | 'voice' | 'audio' | 'video' | 'video_note';
  /** The transport's id to fetch it with (its file id). */
  id: string;
  fileName?: string;
  mimeType?: string;
  /** Bytes, as the transport reported them before any download. */
  size?: number;
  durationSeconds?: number;
}

/** Fetches attachments: the transport's side of receiving files. */
export interface Downloads {
  /** The largest file the transport can fetch. */
  readonly maxBytes: number;
  /** Writes the attachment's bytes to `path`; rejects (with a sentence) when it cannot. */
  /** Stops, rejecting, when `signal` is aborted (a download past its deadline). */
  download(attachment: Attachment, path: string, signal?: AbortSignal): Promise<void>;
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
  /** Files sent with it (a caption is its text). */
  attachments?: Attachment[];
  /** Messages sent together as an album share this id; they make one prompt. */
  albumId?: string;
  /** The message this one replies to, when it does (the context of a /spawn, and its files). */
  replyTo?: { text: string; from?: string; attachments?: Attachment[] };
}

export interface ButtonPress {
  address: ChatAddress;
  user: ChatUser;
  data: string;
  messageId: number;
}

/** The answer to a button press, shown as a toast. */
export type ButtonAnswer = { text: string; alert?: boolean };
