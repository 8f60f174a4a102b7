import type { RichText } from '../rich/model.ts';
import type { ChatCapabilities, MessageFit } from './capabilities.ts';

/**
 * What the bridge needs from a chat transport, and what a transport hands the bridge. Nothing
 * here knows any one transport.
 */

export type { RichText, ChatCapabilities, MessageFit };

/**
 * A chat, or one thread (a forum topic) of it, on one transport: each has its own agent
 * session. The ids are the transport's own, as strings: a number on one transport, a word on
 * another.
 */
export interface ChatRef {
  /** Which transport the chat is on: its `Transport.id`. */
  transport: string;
  chat: string;
  thread?: string;
}

/**
 * The chat of runs started through the API for no chat: announced nowhere, listed by the API
 * (where it has no chat). No transport has it.
 */
export const NO_CHAT: ChatRef = Object.freeze({ transport: 'none', chat: 'none' });

export function isNoChat(ref: ChatRef): boolean {
  return ref.transport === NO_CHAT.transport;
}

/** A chat, or its thread when there is one. */
export function chatRef(transport: string, chat: string | number, thread?: string | number): ChatRef {
  return thread === undefined ? { transport, chat: String(chat) } : { transport, chat: String(chat), thread: String(thread) };
}

/** The chat's id across transports (`transport:chat` or `transport:chat:thread`): what records are keyed by. */
export function chatKey(ref: ChatRef): string {
  return ref.thread === undefined ? `${ref.transport}:${ref.chat}` : `${ref.transport}:${ref.chat}:${ref.thread}`;
}

/** The chat a `chatKey` names (records keep keys); undefined: not a chat key. */
export function chatOfKey(key: string): ChatRef | undefined {
  const [transport, chat, thread, ...rest] = key.split(':');
  if (!transport || !chat || rest.length || thread === '') return undefined;
  return chatRef(transport, chat, thread);
}

/** The chat (without its thread) a key or ref names: what a scope of chats is written in. */
export function wholeChatKey(ref: ChatRef): string {
  return `${ref.transport}:${ref.chat}`;
}

/**
 * A chat or user as a person writes it (BRIDGE_ALLOWED_USERS, BRIDGE_API_SCOPES, the API):
 * `transport:id`, or a bare number, which means the transport that `bareNumbers` names (the
 * one the bridge began with, whose ids are numbers). Undefined: not an id.
 */
export function qualifiedId(written: string, bareNumbers: string): string | undefined {
  const text = written.trim();
  if (/^-?\d+$/.test(text)) return `${bareNumbers}:${text}`;
  // An id naming its server keeps the server's colon (`<transport>:@alice:example.org`).
  return /^[a-z][a-z0-9-]*:(?:[^\s:]+|@[^\s:]+:[^\s]+)$/.test(text) ? text : undefined;
}

/** Whom a person's work is charged to: their key (`transport:id`, as allowlists hold it) and name. */
export function personOf(chat: Pick<ChatRef, 'transport'>, user: Pick<ChatUser, 'id' | 'identity' | 'name'>): { key: string; name?: string } {
  return { key: userKey(chat.transport, user), ...(user.name ? { name: user.name } : {}) };
}

/** A user on a transport, as allowlists hold it: `transport:id`. */
export function userKey(transport: string, user: Pick<ChatUser, 'id' | 'identity'>): string {
  return user.identity ?? `${transport}:${user.id}`;
}

export interface MessageRef extends ChatRef {
  messageId: string;
  /** Its place in its chat's sequence of messages, where the transport numbers them in order (see `IncomingMessage.order`). */
  order?: number;
}

export interface Button {
  text: string;
  /** At most BUTTON_PAYLOAD_BYTES, which every transport's `buttonPayloadBytes` holds. */
  data: string;
  /**
   * A button that opens an address instead of coming back as a press: a link, or (`inApp`) the
   * transport's own in-app page where it has one (a Mini App, in a private chat).
   */
  opens?: { url: string; inApp?: boolean };
}

export interface SendOptions {
  buttons?: Button[][];
  replyTo?: string;
}

export interface EditOptions {
  buttons?: Button[][];
  urgent?: boolean;
}

/**
 * Sending to chats. Text is the core's rich text; each transport renders it (its markup, or
 * plain text) and says how much of it one message holds.
 */
export interface Outbound {
  send(to: ChatRef, text: RichText, options?: SendOptions): Promise<MessageRef>;
  /**
   * Edits a sent message. A "not modified" or vanished message is not an error: the answer
   * says whether the message is there showing the text (false: someone deleted it).
   * `urgent` marks the answer to someone's press (a settled question, a ticked option): it
   * goes out with new messages, ahead of progress edits, which a busy chat could hold back.
   */
  edit(ref: MessageRef, text: RichText, options?: EditOptions): Promise<boolean>;
  /** Marks someone's message with an emoji (👀: the working agent has it); transports without reactions leave it out. */
  react?(message: MessageRef, emoji: string): Promise<void>;
  /**
   * Shows, the app's own way, that the agent is at work in `to` (a status under the thread),
   * kept up until told it is not; apps without such a sign, and chats where it does not show,
   * leave it out.
   */
  working?(to: ChatRef, working: boolean): Promise<void>;
  /** Text the bridge made (a long answer, a log) as a document. */
  sendDocument(to: ChatRef, document: { filename: string; content: string; caption?: RichText }, options?: SendOptions): Promise<MessageRef>;
  /** A file from disk: as a photo (shown inline) or a document. */
  sendFile(to: ChatRef, file: OutgoingFile, options?: SendOptions): Promise<MessageRef>;
  /**
   * A picture the bridge drew (an orchestration's graph), shown inline, to be replaced by
   * `editPicture` as what it shows changes. Transports that show no pictures leave both out.
   */
  sendPicture?(to: ChatRef, picture: Picture, options?: SendOptions): Promise<MessageRef>;
  /**
   * Puts `picture` (and its caption) in the place of one `sendPicture` sent. Like `edit`: it
   * waits behind new messages, a newer picture for the same message replaces one still
   * waiting, and "not modified" or a vanished message is no error (false: it is gone).
   */
  editPicture?(ref: MessageRef, picture: Picture): Promise<boolean>;
  /** What the chat's app can do: its limits and features. */
  capabilities(to: ChatRef): ChatCapabilities;
  /** How text fits the chat's messages, by its app's rules. */
  fit(to: ChatRef): MessageFit;
  /**
   * Whether the chat's sending is short (most of its window used, or calls waiting): what can
   * be left out then (a progress message a quick answer would replace, a queue notice) is.
   * Absent: never.
   */
  crowded?(to: ChatRef): boolean;
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

/**
 * The chat app refuses the bot this chat for good (the bot was removed or blocked, the chat is
 * gone, it may not write there): trying again cannot help. Each transport says it this way,
 * whatever its app answered.
 */
export class ChatUnreachableError extends Error {
  override name = 'ChatUnreachableError';
}

/** An image the bridge made, as PNG bytes. */
export interface Picture {
  png: Uint8Array;
  /** The file's name, where the transport shows or keeps one (`orchestration-3.png`). */
  filename: string;
  caption?: RichText;
}

/** A file that came with a message, not yet fetched: the transport's handle and what it said about it. */
export interface Attachment {
  kind: 'document' | 'photo' | 'voice' | 'audio' | 'video';
  /** A video recorded in the chat app as a message (a round video note), not a file someone chose. */
  recorded?: boolean;
  /** The transport's id to fetch it with (its file id). */
  id: string;
  fileName?: string;
  mimeType?: string;
  /** Bytes, as the transport reported them before any download. */
  size?: number;
  durationSeconds?: number;
}

/** What a file of this MIME type is, where its chat app says no more of it. */
export function attachmentKind(mime: string | undefined): Attachment['kind'] {
  const type = mime ?? '';
  if (type.startsWith('image/')) return 'photo';
  if (type.startsWith('audio/')) return 'audio';
  return type.startsWith('video/') ? 'video' : 'document';
}

/** Fetches attachments: the transport's side of receiving files. */
export interface Downloads {
  /** The largest file the transport can fetch. */
  readonly maxBytes: number;
  /** Writes the attachment's bytes to `path`; rejects (with a sentence) when it cannot, or when `signal` is aborted (a download past its deadline). */
  download(attachment: Attachment, path: string, signal?: AbortSignal): Promise<void>;
}

/** Who wrote, by the transport's own id (the chat says which transport). */
export interface ChatUser {
  id: string;
  name?: string;
  /**
   * Who this is on the transport that vouched for them, as allowlists hold it (`<transport>:42`),
   * when that is not this transport: the web pages' users log in through their chat app.
   * None: `<this transport>:<id>`.
   */
  identity?: string;
}

export interface IncomingMessage {
  address: ChatRef;
  user: ChatUser;
  text: string;
  messageId?: string;
  /**
   * Its place in its chat's sequence of messages, people's and the bridge's alike, where the
   * transport numbers them in order (a chat app's message ids): what came before it in the chat
   * has a lower one. It may have waited out a restart, or crossed the bridge's messages on the way.
   */
  order?: number;
  /** Files sent with it (a caption is its text). */
  attachments?: Attachment[];
  /** Messages sent together as an album share this id; they make one prompt. */
  albumId?: string;
  /** The chat is this person's alone (a private chat, the console, their web chat): what is said there reaches them only. */
  private?: boolean;
  /** The chat's name as its people know it (a group's title, a private chat's person), for the dashboard. */
  chatTitle?: string;
  /** The message this one replies to, when it does (the context of a /spawn, and its files; whom /allow names): `fromId`, its author's id on this transport. */
  replyTo?: { text: string; from?: string; fromId?: string; attachments?: Attachment[] };
}

export interface ButtonPress {
  address: ChatRef;
  user: ChatUser;
  data: string;
  messageId: string;
}

/** The answer to a button press, shown as a toast. */
export type ButtonAnswer = { text: string; alert?: boolean };
