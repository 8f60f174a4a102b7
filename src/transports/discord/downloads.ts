import type { Downloads } from '../../kernel/ports/chat.ts';
import { appDownloads } from '../serving/incoming.ts';

/** The largest file taken from a person: Discord lets people without Nitro send 10 MiB; this leaves room for more. */
const DISCORD_DOWNLOAD_LIMIT = 25 * 1024 * 1024;

/** Files people send, fetched from the URL Discord gave with the message (its CDN, signed and needing no token). */
export function discordDownloads(): Downloads {
  return appDownloads(DISCORD_DOWNLOAD_LIMIT, 'the bridge takes from Discord', (attachment, signal, tooBig) => {
    if (attachment.size !== undefined && attachment.size > DISCORD_DOWNLOAD_LIMIT) throw new Error(tooBig);
    return fetch(attachment.id, { redirect: 'follow', signal });
  });
}
