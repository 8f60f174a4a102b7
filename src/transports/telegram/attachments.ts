import type { Message } from 'grammy/types';
import type { Attachment } from '../../kernel/ports/chat.ts';

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
