import { saveDownload } from '../../engine/files/save-download.ts';
import { megabytes } from '../../engine/files/sizes.ts';
import type { Attachment, Downloads } from '../../kernel/ports/chat.ts';

/** The largest file taken from a person: Discord lets people without Nitro send 10 MiB; this leaves room for more. */
export const DISCORD_DOWNLOAD_LIMIT = 25 * 1024 * 1024;

/**
 * Files people send, fetched from the URL Discord gave with the message (its CDN, signed and
 * needing no token), streamed to disk and cut off past the limit.
 */
export class DiscordDownloads implements Downloads {
  readonly maxBytes = DISCORD_DOWNLOAD_LIMIT;

  async download(attachment: Attachment, path: string, signal?: AbortSignal): Promise<void> {
    if (attachment.size !== undefined && attachment.size > this.maxBytes)
      throw new Error(`it is over the ${megabytes(this.maxBytes)} the bridge takes from Discord`);
    const response = await fetch(attachment.id, { redirect: 'follow', signal });
    await saveDownload(response, path, { limit: this.maxBytes, tooBig: `it is over the ${megabytes(this.maxBytes)} the bridge takes from Discord`, signal });
  }
}
