import type { File } from 'grammy/types';
import { badRequest } from '../api-error.ts';
import { reportedSize, type FileKind, type StoredDocument } from '../world.ts';
import type { MethodContext } from './context.ts';

/** Bots may download files up to 20 MB through the Bot API (Client.h: MAX_DOWNLOAD_FILE_SIZE = 20 << 20). */
export const DOWNLOAD_LIMIT = 20 * 1024 * 1024;

/** The folder Telegram's Bot API server keeps a file in, by what it is. */
const FOLDER: Record<FileKind, string> = {
  document: 'documents',
  photo: 'photos',
  voice: 'voice',
  audio: 'music',
  video: 'videos',
  video_note: 'video_notes',
};

/** Photos are re-encoded as JPEG and voice notes are Ogg/Opus, whatever they were called; the rest keep their extension. */
function extensionOf(file: StoredDocument): string {
  if (file.kind === 'photo') return 'jpg';
  if (file.kind === 'voice') return 'oga';
  if (file.kind === 'video_note') return 'mp4';
  const named = /\.([a-z0-9]+)$/i.exec(file.fileName)?.[1]?.toLowerCase();
  return named ?? (file.kind === 'audio' ? 'mp3' : file.kind === 'video' ? 'mp4' : 'bin');
}

/** `getFile`: where a file can be downloaded, for files a bot may download; worded as the Bot API words it. */
export function getFile(ctx: MethodContext): File {
  const id = ctx.params.string('file_id');
  if (!id) throw badRequest('file_id not specified');
  const file = ctx.world.file(id);
  if (!file) throw badRequest('invalid file_id');
  const size = reportedSize(file);
  if (size > DOWNLOAD_LIMIT) throw badRequest('file is too big');
  return {
    file_id: file.fileId,
    file_unique_id: file.fileUniqueId,
    file_size: size,
    file_path: ctx.world.filePathOf(file, FOLDER[file.kind], extensionOf(file)),
  };
}
