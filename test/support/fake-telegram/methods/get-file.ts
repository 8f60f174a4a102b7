import type { File } from 'grammy/types';
import { ApiError, badRequest } from '../api-error.ts';
import { reportedSize, type StoredDocument } from '../world.ts';
import type { MethodContext } from './context.ts';

/** Bots may download files up to 20 MB through the Bot API. */
export const DOWNLOAD_LIMIT = 20 * 1024 * 1024;

/** The folder Telegram puts a file in, by what it is. */
function folderOf(file: StoredDocument): string {
  if (file.mimeType === 'audio/ogg') return 'voice';
  if (file.mimeType.startsWith('image/')) return 'photos';
  if (file.mimeType.startsWith('audio/')) return 'music';
  if (file.mimeType.startsWith('video/')) return 'videos';
  return 'documents';
}

/** `getFile`: where a file can be downloaded, for files a bot may download. */
export function getFile(ctx: MethodContext): File {
  const id = ctx.params.string('file_id');
  if (!id) throw badRequest('file_id is empty');
  const file = ctx.world.file(id);
  if (!file) throw badRequest('invalid file_id');
  if (reportedSize(file) > DOWNLOAD_LIMIT) throw new ApiError(400, 'Bad Request: file is too big');
  return { file_id: file.fileId, file_unique_id: file.fileUniqueId, file_size: reportedSize(file), file_path: ctx.world.filePathOf(file, folderOf(file)) };
}
