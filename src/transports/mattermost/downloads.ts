import type { Downloads } from '../../kernel/ports/chat.ts';
import { appDownloads } from '../serving/incoming.ts';
import { MATTERMOST_CAPABILITIES } from './capabilities.ts';
import type { ReadyMattermostSettings } from './settings.ts';

/**
 * Files people post, fetched from the server's `GET /api/v4/files/{id}` with the bot's token
 * (an attachment's id is the file's): the address is made here, from MATTERMOST_URL, so the
 * token never goes where a post could point it.
 */
export function mattermostDownloads(settings: Pick<ReadyMattermostSettings, 'url' | 'token'>): Downloads {
  return appDownloads(MATTERMOST_CAPABILITIES.uploadBytes, 'a bot may download', async (attachment, signal) => {
    if (!/^[a-z0-9]{26}$/.test(attachment.id)) throw new Error('Mattermost gave no file id to download');
    const response = await fetch(`${settings.url}/api/v4/files/${attachment.id}`, {
      headers: { authorization: `Bearer ${settings.token}`, 'x-requested-with': 'XMLHttpRequest' },
      signal,
    });
    if (!response.ok) throw new Error(`Mattermost answered ${response.status} for the file`);
    return response;
  });
}
