import { GrammyError, type Api } from 'grammy';
import type { Message } from 'grammy/types';
import type { Attachment, Downloads } from '../../kernel/ports/chat.ts';
import { appDownloads } from '../serving/incoming.ts';

/**
 * The files of a Telegram message, as the bridge takes them: a document (GIFs come as one
 * too), the largest size of a photo, a voice note, audio, a video or a round video message.
 */
export function attachmentsOf(message: Message): Attachment[] {
  const found: Attachment[] = [];
  if (message.document) {
    const { file_id, file_name, mime_type, file_size } = message.document;
    found.push({ kind: 'document', id: file_id, fileName: file_name, mimeType: mime_type, size: file_size });
  }
  const largest = message.photo?.at(-1);
  if (largest) found.push({ kind: 'photo', id: largest.file_id, mimeType: 'image/jpeg', size: largest.file_size });
  if (message.voice) {
    const { file_id, mime_type, file_size, duration } = message.voice;
    found.push({ kind: 'voice', id: file_id, mimeType: mime_type, size: file_size, durationSeconds: duration });
  }
  for (const kind of ['audio', 'video'] as const) {
    const media = message[kind];
    if (!media) continue;
    found.push({ kind, id: media.file_id, fileName: media.file_name, mimeType: media.mime_type, size: media.file_size, durationSeconds: media.duration });
  }
  if (message.video_note) {
    const { file_id, file_size, duration } = message.video_note;
    // A round video is a video the person recorded in the app: named and worded as a video note.
    found.push({ kind: 'video', recorded: true, id: file_id, mimeType: 'video/mp4', size: file_size, durationSeconds: duration });
  }
  return found;
}

/** The Bot API serves files up to 20 MB to bots (a self-hosted Bot API server, more). */
const BOT_API_DOWNLOAD_LIMIT = 20 * 1024 * 1024;

/**
 * Files users send, fetched the Bot API's way: getFile for a path, then a GET of
 * `<apiRoot>/file/bot<token>/<path>`, streamed to disk and cut off past the limit.
 */
export function telegramDownloads(api: Api, telegram: { token: string; apiRoot: string }): Downloads {
  return appDownloads(BOT_API_DOWNLOAD_LIMIT, 'a bot may download', async (attachment, signal, tooBig) => {
    // grammY types its signal with the abort-controller shim's class; Node's own is what it uses at run time.
    const file = await api.getFile(attachment.id, signal as Parameters<Api['getFile']>[1]).catch((error: unknown) => {
      throw error instanceof GrammyError && /file is too big/i.test(error.description) ? new Error(tooBig) : error;
    });
    if (!file.file_path) throw new Error('Telegram gave no path to download it from');
    return fetch(`${telegram.apiRoot}/file/bot${telegram.token}/${file.file_path}`, signal ? { signal } : {});
  });
}
