import type { Document, InlineKeyboardButton, InlineKeyboardMarkup, Message, MessageEntity, PhotoSize, User } from 'grammy/types';
import type { ParseMode } from './formatting/format-text.ts';
import { reportedSize, type MessageRecord, type MessageVersion, type StoredDocument, type StoredMedia, type World } from './world.ts';

/** Two views of a stored message: the Bot API object the bot receives, and the one tests read. */

/** A file as a test reads it: what the Bot API shows of it, and the bytes a download serves. */
export interface FakeDocument {
  readonly fileId: string;
  readonly fileName: string;
  readonly mimeType: string;
  readonly bytes: Buffer;
  /** The file_size Telegram reports: bytes.length, or the sender's declaredSize. */
  readonly fileSize: number;
}

export interface FakeMessage {
  readonly chatId: number;
  readonly messageId: number;
  /** The forum topic, if any. */
  readonly threadId: number | undefined;
  readonly fromBot: boolean;
  readonly from: User;
  /** Unix seconds, as in the Bot API. */
  readonly date: number;
  /** Visible text after entity parsing (tags stripped, entities unescaped); undefined for documents. */
  readonly text: string | undefined;
  readonly caption: string | undefined;
  /** Entities of the text, or of the caption for documents. */
  readonly entities: readonly MessageEntity[];
  /** The text / caption parameter exactly as sent, e.g. the HTML source. */
  readonly source: string | undefined;
  readonly parseMode: ParseMode | undefined;
  readonly replyMarkup: InlineKeyboardMarkup | undefined;
  /** Every inline button, row by row. */
  readonly buttons: readonly InlineKeyboardButton[];
  /** Inside a forum topic this is the topic id unless the message replies to another message, as in Telegram. */
  readonly replyToMessageId: number | undefined;
  readonly document: FakeDocument | undefined;
  /** A photo (its largest size: `media.bytes` are the photo's bytes), voice note, audio, video or round video. */
  readonly media: (FakeDocument & { readonly kind: StoredMedia['kind'] }) | undefined;
  /** Number of successful edits (text and reply markup). */
  readonly editCount: number;
  /** Earlier versions, oldest first. */
  readonly history: readonly MessageVersion[];
  readonly deleted: boolean;
  /** The bot's reaction to it (emoji). */
  readonly botReactions: readonly string[];
  /** The message as the Bot API returns it now. */
  readonly raw: Message;
}

function documentObject(stored: StoredDocument): Document {
  return {
    file_id: stored.fileId,
    file_unique_id: stored.fileUniqueId,
    file_name: stored.fileName,
    mime_type: stored.mimeType,
    file_size: reportedSize(stored),
  };
}

/** Photo sizes grow by this much each; the largest is the one sent. */
const PHOTO_WIDTHS = [90, 320, 1280];

/** The message field of a photo, voice note, audio, video or round video, as the Bot API shapes it. */
function mediaFields(media: StoredMedia): Partial<Message> {
  const ids = (file: StoredDocument) => ({ file_id: file.fileId, file_unique_id: file.fileUniqueId, file_size: reportedSize(file) });
  const file = media.files.at(-1)!;
  const duration = media.duration ?? 1;
  switch (media.kind) {
    case 'photo':
      return {
        photo: media.files.map((size, i): PhotoSize => ({
          ...ids(size),
          width: PHOTO_WIDTHS[i] ?? 1280,
          height: Math.round((PHOTO_WIDTHS[i] ?? 1280) * 0.75),
        })),
      };
    case 'voice':
      return { voice: { ...ids(file), duration, mime_type: file.mimeType } };
    case 'audio':
      return { audio: { ...ids(file), duration, file_name: file.fileName, mime_type: file.mimeType } };
    case 'video':
      return { video: { ...ids(file), width: 640, height: 360, duration, file_name: file.fileName, mime_type: file.mimeType } };
    case 'video_note':
      return { video_note: { ...ids(file), length: 240, duration } };
  }
}

/** The Bot API Message; a replied-to message is embedded one level deep, as Telegram does. */
export function toBotApiMessage(world: World, record: MessageRecord, embedReply = true): Message {
  const chat = world.chat(record.chatId)?.chat;
  if (!chat) throw new Error(`message ${record.messageId} belongs to unknown chat ${record.chatId}`);
  const replied = embedReply && record.replyToMessageId !== undefined ? world.message(record.chatId, record.replyToMessageId) : undefined;
  const { text, caption, entities } = record.content;

  const message: Message = {
    message_id: record.messageId,
    from: record.from,
    chat,
    date: record.date,
    ...(record.threadId !== undefined && { message_thread_id: record.threadId, is_topic_message: true }),
    ...(replied && {
      reply_to_message: toBotApiMessage(world, replied, false) as Message & { reply_to_message: undefined },
    }),
    ...(record.editDate !== undefined && { edit_date: record.editDate }),
    ...(record.protectContent && { has_protected_content: true as const }),
    ...(text !== undefined && { text, ...(entities.length > 0 && { entities: [...entities] }) }),
    ...(record.document && { document: documentObject(record.document) }),
    ...(record.media && mediaFields(record.media)),
    ...(record.mediaGroupId !== undefined && { media_group_id: record.mediaGroupId }),
    ...(caption !== undefined &&
      caption !== '' && {
        caption,
        ...(entities.length > 0 && { caption_entities: [...entities] }),
      }),
    ...(record.linkPreviewOptions && { link_preview_options: record.linkPreviewOptions }),
    ...(record.replyMarkup && { reply_markup: structuredClone(record.replyMarkup) }),
    ...(record.topicName !== undefined && { forum_topic_created: { name: record.topicName, icon_color: 0x6fb9f0 } }),
  };
  return message;
}

const fakeFile = (file: StoredDocument): FakeDocument => ({
  fileId: file.fileId,
  fileName: file.fileName,
  mimeType: file.mimeType,
  bytes: file.bytes,
  fileSize: reportedSize(file),
});

export function toFakeMessage(world: World, record: MessageRecord): FakeMessage {
  const { text, caption, entities, source, parseMode } = record.content;
  return {
    chatId: record.chatId,
    messageId: record.messageId,
    threadId: record.threadId,
    fromBot: record.fromBot,
    from: record.from,
    date: record.date,
    text,
    caption,
    entities,
    source,
    parseMode,
    replyMarkup: record.replyMarkup,
    buttons: record.replyMarkup?.inline_keyboard.flat() ?? [],
    replyToMessageId: record.replyToMessageId,
    document: record.document && fakeFile(record.document),
    media: record.media && { kind: record.media.kind, ...fakeFile(record.media.files.at(-1)!) },
    editCount: record.history.length,
    history: [...record.history],
    deleted: record.deleted,
    botReactions: [...record.botReactions],
    raw: toBotApiMessage(world, record),
  };
}
