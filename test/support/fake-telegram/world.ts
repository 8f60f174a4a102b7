import type { Chat, InlineKeyboardMarkup, LinkPreviewOptions, MessageEntity, User, UserFromGetMe } from 'grammy/types';
import type { ParseMode } from './formatting/format-text.ts';

/**
 * The fake's in-memory Telegram: users, chats, their messages and uploaded files. Message ids
 * grow per chat from 1, as a supergroup's do; forum topics are identified, as in Telegram, by
 * the id of the service message that created them.
 */

/** Kinds of media other than documents, which have their own message field. */
export type MediaKind = 'photo' | 'voice' | 'audio' | 'video' | 'video_note';

/** What a file is to Telegram: it decides its folder on download and which methods may re-send it. */
export type FileKind = 'document' | MediaKind;

export interface StoredDocument {
  readonly fileId: string;
  readonly fileUniqueId: string;
  readonly kind: FileKind;
  readonly fileName: string;
  readonly mimeType: string;
  readonly bytes: Buffer;
  /** The size Telegram reports, when a test simulates a file larger than its bytes. */
  readonly declaredSize?: number;
  /** Where getFile said it can be downloaded (`photos/file_4.jpg`); set on the first getFile. */
  filePath?: string;
}

/** What storeFile needs: the file's kind, name, type and bytes. */
export type NewFile = Pick<StoredDocument, 'kind' | 'fileName' | 'mimeType' | 'bytes' | 'declaredSize'>;

/** A photo (its sizes, smallest first), voice note, audio, video or round video of a message. */
export interface StoredMedia {
  readonly kind: MediaKind;
  /** One file; a photo's sizes, smallest first, the largest last. */
  readonly files: readonly StoredDocument[];
  readonly duration?: number;
}

/** A file's size as Telegram reports it. */
export const reportedSize = (file: StoredDocument) => file.declaredSize ?? file.bytes.length;

/** What a message shows: text or caption with entities, and the source the bot sent. */
export interface MessageContent {
  readonly text?: string;
  readonly caption?: string;
  readonly entities: readonly MessageEntity[];
  /** The text or caption parameter exactly as the bot sent it (HTML / Markdown source). */
  readonly source?: string;
  readonly parseMode?: ParseMode;
}

/** A message's state before one of its edits. */
export interface MessageVersion {
  /** What the edit changed: the text, the keyboard, or the media (editMessageMedia, with its caption). */
  readonly kind: 'text' | 'reply_markup' | 'media';
  readonly content: MessageContent;
  readonly replyMarkup: InlineKeyboardMarkup | undefined;
  /** The file the message had before a media edit. */
  readonly document?: StoredDocument | undefined;
  readonly media?: StoredMedia | undefined;
  /** Date.now() when this version was replaced. */
  readonly replacedAt: number;
}

export interface MessageRecord {
  readonly chatId: number;
  readonly messageId: number;
  readonly threadId: number | undefined;
  readonly date: number;
  readonly from: User;
  readonly fromBot: boolean;
  content: MessageContent;
  replyMarkup: InlineKeyboardMarkup | undefined;
  readonly replyToMessageId: number | undefined;
  /** Replaced by editMessageMedia. */
  document: StoredDocument | undefined;
  /** A photo, voice note, audio, video or round video, when the message has one; replaced by editMessageMedia. */
  media?: StoredMedia | undefined;
  /** Messages of one album share it. */
  readonly mediaGroupId?: string;
  readonly linkPreviewOptions: LinkPreviewOptions | undefined;
  readonly protectContent: boolean;
  editDate: number | undefined;
  readonly history: MessageVersion[];
  deleted: boolean;
  /** The bot's reaction to the message (setMessageReaction): its emoji, none when it has not reacted. */
  botReactions: string[];
  /** Set on the service message that created a forum topic. */
  readonly topicName: string | undefined;
}

/** A user's place in a group, as getChatMember reports it (`restricted` may or may not still be in it). */
export type Standing = { status: 'creator' | 'administrator' | 'member' | 'left' | 'kicked' } | { status: 'restricted'; isMember: boolean };

export interface ChatRecord {
  chat: Chat;
  nextMessageId: number;
  readonly messages: Map<number, MessageRecord>;
  readonly topics: Set<number>;
}

export type NewMessage = Omit<MessageRecord, 'messageId' | 'date' | 'editDate' | 'history' | 'deleted' | 'botReactions' | 'topicName'>;

export const unixNow = () => Math.floor(Date.now() / 1000);

/** How many sizes a photo comes in (Telegram makes up to four or so, depending on the original). */
export const PHOTO_SIZES = 3;

const FILE_ID_PREFIX: Record<FileKind, string> = {
  document: 'BQAC',
  photo: 'AgAC',
  voice: 'AwAC',
  audio: 'CQAC',
  video: 'BAAC',
  video_note: 'DQAC',
};

export class World {
  private readonly users = new Map<number, User>();
  private readonly chats = new Map<number, ChatRecord>();
  /** Each group's people and how they stand there; someone never seen in a group has left it. */
  private readonly standings = new Map<number, Map<number, Standing>>();
  private readonly files = new Map<string, StoredDocument>();
  private readonly filesByPath = new Map<string, StoredDocument>();
  /** Each size's file_id to all sizes of its photo, so that re-sending any of them re-sends the photo. */
  private readonly photos = new Map<string, readonly StoredDocument[]>();
  private fileCounter = 0;

  /** The bot as it appears in messages: a plain User, without getMe's capability fields. */
  readonly botUser: User;

  constructor(readonly bot: UserFromGetMe) {
    this.botUser = { id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username };
  }

  user(id: number): User | undefined {
    return this.users.get(id);
  }

  upsertUser(user: User): User {
    this.users.set(user.id, user);
    return user;
  }

  /** How a user stands in a group: what getChatMember answers. */
  standing(chatId: number, userId: number): Standing {
    return this.standings.get(chatId)?.get(userId) ?? { status: 'left' };
  }

  setStanding(chatId: number, userId: number, standing: Standing): void {
    const people = this.standings.get(chatId) ?? new Map<number, Standing>();
    people.set(userId, standing);
    this.standings.set(chatId, people);
  }

  /** Someone who writes in a group is in it, unless a test said how they stand. */
  joined(chatId: number, userId: number): void {
    if (!this.standings.get(chatId)?.has(userId)) this.setStanding(chatId, userId, { status: 'member' });
  }

  chat(id: number): ChatRecord | undefined {
    return this.chats.get(id);
  }

  chatByUsername(username: string): ChatRecord | undefined {
    const wanted = username.replace(/^@/, '').toLowerCase();
    return [...this.chats.values()].find((c) => c.chat.username?.toLowerCase() === wanted);
  }

  /** Creates the chat on first use; a later use must agree on its type. */
  ensureChat(chat: Chat): ChatRecord {
    const existing = this.chats.get(chat.id);
    if (existing) {
      if (existing.chat.type !== chat.type) {
        throw new Error(`chat ${chat.id} is a ${existing.chat.type} chat, not a ${chat.type} chat`);
      }
      return existing;
    }
    const record: ChatRecord = { chat, nextMessageId: 1, messages: new Map(), topics: new Set() };
    this.chats.set(chat.id, record);
    return record;
  }

  addMessage(init: NewMessage): MessageRecord {
    const chat = this.requireChat(init.chatId);
    const record: MessageRecord = {
      ...init,
      messageId: chat.nextMessageId++,
      date: unixNow(),
      editDate: undefined,
      history: [],
      deleted: false,
      botReactions: [],
      topicName: undefined,
    };
    chat.messages.set(record.messageId, record);
    return record;
  }

  /** The message if it exists and was not deleted. */
  message(chatId: number, messageId: number): MessageRecord | undefined {
    const record = this.chats.get(chatId)?.messages.get(messageId);
    return record && !record.deleted ? record : undefined;
  }

  /** Includes deleted messages; for the test-facing views. */
  anyMessage(chatId: number, messageId: number): MessageRecord | undefined {
    return this.chats.get(chatId)?.messages.get(messageId);
  }

  messages(chatId: number): MessageRecord[] {
    return [...(this.chats.get(chatId)?.messages.values() ?? [])];
  }

  hasTopic(chatId: number, threadId: number): boolean {
    return this.chats.get(chatId)?.topics.has(threadId) ?? false;
  }

  /**
   * Opens forum topic `threadId` in a supergroup, creating its service message under that id.
   * Makes the chat a forum, as only forums have topics.
   */
  ensureTopic(chatId: number, threadId: number, creator: User, name = `Topic ${threadId}`): void {
    const chat = this.requireChat(chatId);
    if (chat.topics.has(threadId)) return;
    if (chat.chat.type !== 'supergroup') throw new Error(`chat ${chatId} is not a supergroup; only forums have topics`);
    if (!Number.isInteger(threadId) || threadId < 1) throw new Error(`invalid topic id ${threadId}`);
    if (chat.messages.has(threadId)) {
      throw new Error(`topic ${threadId} cannot be opened in chat ${chatId}: message ${threadId} already exists there`);
    }
    chat.chat = { ...chat.chat, is_forum: true };
    chat.topics.add(threadId);
    chat.messages.set(threadId, {
      chatId,
      messageId: threadId,
      threadId,
      date: unixNow(),
      from: creator,
      fromBot: false,
      content: { entities: [] },
      replyMarkup: undefined,
      replyToMessageId: undefined,
      document: undefined,
      linkPreviewOptions: undefined,
      protectContent: false,
      editDate: undefined,
      history: [],
      deleted: false,
      botReactions: [],
      topicName: name,
    });
    chat.nextMessageId = Math.max(chat.nextMessageId, threadId + 1);
  }

  storeFile(init: NewFile): StoredDocument {
    const n = String(++this.fileCounter).padStart(6, '0');
    const stored: StoredDocument = {
      // Real file_ids start with their type (BQAC a document, AgAC a photo…); tests may rely on them differing.
      fileId: `${FILE_ID_PREFIX[init.kind]}AgIAAxkDAAI${n}${this.bot.id}`,
      fileUniqueId: `${init.kind === 'photo' ? 'AQAD' : 'AgAD'}${n}`,
      kind: init.kind,
      fileName: init.fileName,
      mimeType: init.mimeType,
      bytes: init.bytes,
      ...(init.declaredSize !== undefined && { declaredSize: init.declaredSize }),
    };
    this.files.set(stored.fileId, stored);
    return stored;
  }

  /**
   * A photo as Telegram keeps it: PHOTO_SIZES files, smallest first, each with its own file_id.
   * All serve the given bytes (the fake does not scale images); only the largest reports
   * `declaredSize`, as a thumbnail is never that big.
   */
  storePhoto(init: Omit<NewFile, 'kind'>): readonly StoredDocument[] {
    const { declaredSize, ...rest } = init;
    const sizes = Array.from({ length: PHOTO_SIZES }, (_, i) =>
      this.storeFile({ ...rest, kind: 'photo', ...(i === PHOTO_SIZES - 1 && declaredSize !== undefined && { declaredSize }) }),
    );
    for (const size of sizes) this.photos.set(size.fileId, sizes);
    return sizes;
  }

  file(fileId: string): StoredDocument | undefined {
    return this.files.get(fileId);
  }

  /** All sizes of the photo that `fileId` is one size of. */
  photoSizes(fileId: string): readonly StoredDocument[] | undefined {
    return this.photos.get(fileId);
  }

  /** The file's download path, assigned on first use: `<folder>/file_<n>.<extension>`, as Telegram names them. */
  filePathOf(file: StoredDocument, folder: string, extension: string): string {
    if (!file.filePath) {
      file.filePath = `${folder}/file_${this.filesByPath.size}.${extension}`;
      this.filesByPath.set(file.filePath, file);
    }
    return file.filePath;
  }

  fileAt(path: string): StoredDocument | undefined {
    return this.filesByPath.get(path);
  }

  private requireChat(chatId: number): ChatRecord {
    const chat = this.chats.get(chatId);
    if (!chat) throw new Error(`unknown chat ${chatId}`);
    return chat;
  }
}
