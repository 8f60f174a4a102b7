import type { Attachment as DiscordAttachment, Collection } from 'discord.js';
import type { Attachment, Downloads } from '../../kernel/ports/chat.ts';
import { appDownloads, fileAttachment } from '../serving/incoming.ts';

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

/** The largest file taken from a person: Discord lets people without Nitro send 10 MiB; this leaves room for more. */
const DISCORD_DOWNLOAD_LIMIT = 25 * 1024 * 1024;

/** Files people send, fetched from the URL Discord gave with the message (its CDN, signed and needing no token). */
export function discordDownloads(): Downloads {
  return appDownloads(DISCORD_DOWNLOAD_LIMIT, 'the bridge takes from Discord', (attachment, signal, tooBig) => {
    if (attachment.size !== undefined && attachment.size > DISCORD_DOWNLOAD_LIMIT) throw new Error(tooBig);
    return fetch(attachment.id, { redirect: 'follow', signal });
  });
}
