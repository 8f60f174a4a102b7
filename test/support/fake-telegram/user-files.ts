import type { Message } from 'grammy/types';
import { formatText } from './formatting/format-text.ts';
import { postMessage, type ActionDeps, type MessageOptions } from './user-actions.ts';
import type { FileKind, MessageRecord, NewFile, StoredMedia, World } from './world.ts';

/**
 * Files users send: a document, a photo, a voice note, audio, a video or a round video, alone
 * or in an album, with an optional caption. What a Telegram client could not send throws, as
 * the other user actions do: an empty file, a file name on a photo, a voice note in an album.
 */

export interface SendFileOptions extends MessageOptions {
  readonly kind: FileKind;
  readonly bytes: Buffer;
  /** Documents, audio and video only: the Bot API shows no name for the other kinds. */
  readonly fileName?: string;
  /** Not for photos (always JPEG) or round videos (always MP4), which carry no mime_type. */
  readonly mimeType?: string;
  readonly caption?: string;
  /** Messages sent together as an album share it; they must follow one another in the chat. */
  readonly mediaGroupId?: string;
  /** Seconds, for voice, audio, video and round video; default 1. */
  readonly duration?: number;
  /** The file_size Telegram reports instead of bytes.length: a 25 MB file without 25 MB of memory. */
  readonly declaredSize?: number;
}

/** What a client names a file it made itself (a photo, a voice note), and its type. */
const CLIENT_DEFAULTS: Record<FileKind, { name: string; mime: string }> = {
  document: { name: 'file.bin', mime: 'application/octet-stream' },
  photo: { name: 'photo.jpg', mime: 'image/jpeg' },
  voice: { name: 'voice.oga', mime: 'audio/ogg' },
  audio: { name: 'audio.mp3', mime: 'audio/mpeg' },
  video: { name: 'video.mp4', mime: 'video/mp4' },
  video_note: { name: 'video_note.mp4', mime: 'video/mp4' },
};

const NAMED = new Set<FileKind>(['document', 'audio', 'video']);
const TYPED = new Set<FileKind>(['document', 'voice', 'audio', 'video']);
const TIMED = new Set<FileKind>(['voice', 'audio', 'video', 'video_note']);

/** Telegram clients upload up to 2 GB, 4 GB with Premium. */
const MAX_CLIENT_FILE = 4 * 1024 ** 3;

/** An album holds 2–10 items: photos and videos together, or documents only, or audio only. */
const MAX_ALBUM_ITEMS = 10;
const ALBUM_FAMILY: Partial<Record<FileKind, string>> = { photo: 'photos and videos', video: 'photos and videos', document: 'documents', audio: 'audio files' };

function checkFile(options: SendFileOptions): void {
  const { kind, bytes, declaredSize } = options;
  if (!(kind in CLIENT_DEFAULTS)) throw new Error(`sendFile: unknown kind "${String(kind)}"`);
  if (declaredSize === undefined && bytes.length === 0) throw new Error('sendFile: Telegram clients do not send empty files');
  if (declaredSize !== undefined && (!Number.isInteger(declaredSize) || declaredSize < Math.max(1, bytes.length) || declaredSize > MAX_CLIENT_FILE)) {
    throw new Error(`sendFile: declaredSize ${declaredSize} must be a whole number of bytes, at least bytes.length (${bytes.length}) and at most 4 GB`);
  }
  if (options.fileName !== undefined && !NAMED.has(kind))
    throw new Error(`sendFile: a ${kind} has no file name in the Bot API; send kind 'document' for a named file`);
  if (options.mimeType !== undefined && !TYPED.has(kind)) throw new Error(`sendFile: a ${kind} has no mime_type in the Bot API`);
  if (options.duration !== undefined) {
    if (!TIMED.has(kind)) throw new Error(`sendFile: a ${kind} has no duration`);
    if (!Number.isInteger(options.duration) || options.duration < 0) throw new Error(`sendFile: duration must be whole seconds, got ${options.duration}`);
  }
}

const kindOf = (record: MessageRecord): FileKind | undefined => (record.document ? 'document' : record.media?.kind);

/** An album's items are sent at once: same sender and topic, consecutive message ids, kinds that go together. */
function checkAlbum(world: World, options: SendFileOptions): void {
  const groupId = options.mediaGroupId;
  if (groupId === undefined) return;
  const family = ALBUM_FAMILY[options.kind];
  if (family === undefined) throw new Error(`sendFile: a ${options.kind} cannot be part of an album`);
  const items = world.messages(options.chatId).filter((m) => m.mediaGroupId === groupId);
  const last = items.at(-1);
  if (!last) return;
  const where = `album ${JSON.stringify(groupId)} in chat ${options.chatId}`;
  if (items.length >= MAX_ALBUM_ITEMS) throw new Error(`sendFile: ${where} already has ${MAX_ALBUM_ITEMS} items, the most an album holds`);
  const lastKind = kindOf(last);
  if (lastKind === undefined || ALBUM_FAMILY[lastKind] !== family) {
    throw new Error(`sendFile: ${where} holds ${lastKind === undefined ? 'no files' : ALBUM_FAMILY[lastKind]}; a ${options.kind} cannot join it`);
  }
  if (last.from.id !== options.userId) throw new Error(`sendFile: ${where} was sent by user ${last.from.id}, not ${options.userId}`);
  const replied = options.replyTo === undefined ? undefined : world.message(options.chatId, options.replyTo);
  if ((options.threadId ?? replied?.threadId) !== last.threadId)
    throw new Error(`sendFile: ${where} is in topic ${last.threadId ?? 'none'}; its items share one`);
  const newest = (world.chat(options.chatId)?.nextMessageId ?? 1) - 1;
  if (last.messageId !== newest) {
    throw new Error(`sendFile: ${where} ended at message ${last.messageId}, but message ${newest} came after it; an album's messages arrive together`);
  }
}

export function sendFile(deps: ActionDeps, options: SendFileOptions): Message {
  checkFile(options);
  checkAlbum(deps.world, options);
  const { world } = deps;
  const { kind } = options;
  const defaults = CLIENT_DEFAULTS[kind];
  const file: Omit<NewFile, 'kind'> = {
    fileName: options.fileName ?? defaults.name,
    mimeType: options.mimeType ?? defaults.mime,
    bytes: options.bytes,
    ...(options.declaredSize !== undefined && { declaredSize: options.declaredSize }),
  };
  const formatted = options.caption === undefined ? undefined : formatText(options.caption, undefined, undefined);
  const media: StoredMedia | undefined =
    kind === 'document'
      ? undefined
      : {
          kind,
          files: kind === 'photo' ? world.storePhoto(file) : [world.storeFile({ ...file, kind })],
          ...(options.duration !== undefined && { duration: options.duration }),
        };
  return postMessage(deps, options, 'sendFile', {
    content: { caption: formatted?.text ?? '', entities: formatted?.entities ?? [] },
    document: kind === 'document' ? world.storeFile({ ...file, kind }) : undefined,
    ...(media && { media }),
    ...(options.mediaGroupId !== undefined && { mediaGroupId: options.mediaGroupId }),
  });
}
