import type { Attachment, Downloads } from '../../kernel/ports/chat.ts';
import { appDownloads } from '../serving/incoming.ts';

/** The largest file taken from a person. */
const TEAMS_DOWNLOAD_LIMIT = 25 * 1024 * 1024;

/** A file someone shared with the bot, as Teams hands it: a short-lived download URL of its own. */
export const FILE_DOWNLOAD_INFO = 'application/vnd.microsoft.teams.file.download.info';

/** The files an activity carries, as attachments to fetch (an attachment's id is its download URL). */
export function attachmentsOf(attachments: readonly { contentType?: string; name?: string; content?: unknown }[] | undefined): Attachment[] {
  return (attachments ?? []).flatMap((attachment) => {
    const content = attachment.content as { downloadUrl?: string; fileType?: string } | undefined;
    if (attachment.contentType !== FILE_DOWNLOAD_INFO || !content?.downloadUrl) return [];
    const type = content.fileType?.toLowerCase() ?? '';
    const kind: Attachment['kind'] = ['png', 'jpg', 'jpeg', 'gif'].includes(type) ? 'photo' : 'document';
    return [{ kind, id: content.downloadUrl, ...(attachment.name ? { fileName: attachment.name } : {}) }];
  });
}

/**
 * Files people send, fetched from the download URL Teams gave with the activity (signed, and
 * needing no token: the app's token goes nowhere a message names), cut off past the limit.
 */
export function teamsDownloads(): Downloads {
  return appDownloads(TEAMS_DOWNLOAD_LIMIT, 'the bridge takes from Teams', (attachment, signal) => {
    if (new URL(attachment.id).protocol !== 'https:') throw new Error('Teams gave no https address to download it from');
    return fetch(attachment.id, { redirect: 'follow', signal });
  });
}
