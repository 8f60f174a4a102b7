import type { Attachment as DiscordAttachment, Collection } from 'discord.js';
import type { Attachment } from '../../kernel/ports/chat.ts';
import { fileAttachment } from '../serving/incoming.ts';

/** Discord's flag on a voice message's attachment-carrying message. */
const IS_VOICE_MESSAGE = 1 << 13;

/**
 * The files of a Discord message, as the bridge takes them: images as photos, voice messages
 * as voice, audio and video by their type, anything else as a document. Its id is the URL
 * Discord gave to fetch it with.
 */
export function attachmentsOf(files: Collection<string, DiscordAttachment>, messageFlags: number): Attachment[] {
  return [...files.values()].map((file) => ({
    ...fileAttachment(file.url, {
      name: file.name,
      mime: file.contentType?.split(';')[0]!.trim(),
      size: file.size,
      kind: messageFlags & IS_VOICE_MESSAGE ? 'voice' : undefined,
    }),
    ...(file.duration !== null && file.duration !== undefined ? { durationSeconds: Math.round(file.duration) } : {}),
  }));
}
