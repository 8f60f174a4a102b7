import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { megabytes } from '../files/sizes.ts';
import type { Attachment, Downloads } from '../ports/transport.ts';

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
    const response = await fetch(attachment.id, { redirect: 'follow', ...(signal ? { signal } : {}) });
    if (!response.ok || !response.body) throw new Error(`the download failed (HTTP ${response.status})`);
    let received = 0;
    const limit = this.maxBytes;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        done(received > limit ? new Error(`it is over the ${megabytes(limit)} the bridge takes from Discord`) : null, chunk);
      },
    });
    // Never written through a link put in the file's place.
    const target = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
    await pipeline(Readable.fromWeb(response.body), counted, target.createWriteStream(), signal ? { signal } : {}).catch((error: Error) => {
      if (signal?.aborted) throw error;
      throw new Error(/over the/.test(error.message) ? error.message : `the download broke off (${error.message})`);
    });
    const expected = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(expected) && received !== expected) throw new Error(`the download broke off (${received} of ${expected} bytes)`);
  }
}
