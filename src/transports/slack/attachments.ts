import { attachmentKind, type Attachment } from '../../kernel/ports/chat.ts';

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
    const mime = file.mimetype ?? '';
    const kind = attachmentKind(mime);
    return [
      {
        kind,
        id: url,
        ...(file.name ? { fileName: file.name } : {}),
        ...(mime ? { mimeType: mime } : {}),
        size: file.size,
      },
    ];
  });
}
