import type { Attachment } from '../../kernel/ports/chat.ts';
import { fileAttachment } from '../serving/incoming.ts';

/** A file of a Slack message event, as far as the bridge reads it. */
export interface SlackEventFile {
  id?: string;
  name?: string;
  mimetype?: string;
  size?: number;
  url_private_download?: string;
  url_private?: string;
}

/** The files a message carries, as attachments to fetch (an attachment's id is its download URL). */
export function attachmentsOf(files: readonly SlackEventFile[] | undefined): Attachment[] {
  return (files ?? []).flatMap((file) => {
    const url = file.url_private_download ?? file.url_private;
    if (!url) return [];
    return [fileAttachment(url, { name: file.name, mime: file.mimetype, size: file.size })];
  });
}
