import { saveDownload } from '../../engine/files/save-download.ts';
import { megabytes } from '../../engine/files/sizes.ts';
import type { Attachment, Downloads } from '../../kernel/ports/chat.ts';
import { MATTERMOST_CAPABILITIES } from './capabilities.ts';
import type { ReadyMattermostSettings } from './settings.ts';

/**
 * Files people post, fetched from the server's `GET /api/v4/files/{id}` with the bot's token
 * (an attachment's id is the file's): the address is made here, from MATTERMOST_URL, so the
 * token never goes where a post could point it.
 */
export class MattermostDownloads implements Downloads {
  readonly maxBytes = MATTERMOST_CAPABILITIES.uploadBytes;

  constructor(private readonly settings: Pick<ReadyMattermostSettings, 'url' | 'token'>) {}

  async download(attachment: Attachment, path: string, signal?: AbortSignal): Promise<void> {
    if (!/^[a-z0-9]{26}$/.test(attachment.id)) throw new Error('Mattermost gave no file id to download');
    const response = await fetch(`${this.settings.url}/api/v4/files/${attachment.id}`, {
      headers: { authorization: `Bearer ${this.settings.token}`, 'x-requested-with': 'XMLHttpRequest' },
      signal,
    });
    if (!response.ok) throw new Error(`Mattermost answered ${response.status} for the file`);
    await saveDownload(response, path, { limit: this.maxBytes, tooBig: `it is over the ${megabytes(this.maxBytes)} a bot may download`, signal });
  }
}
