import type { Downloads } from '../../kernel/ports/chat.ts';
import { appDownloads } from '../serving/incoming.ts';
import { MATRIX_CAPABILITIES } from './capabilities.ts';
import type { ReadyMatrixSettings } from './settings.ts';

/** `mxc://<server>/<media id>`, as the spec allows them. */
const MXC = /^mxc:\/\/([A-Za-z0-9.:[\]-]+)\/([A-Za-z0-9_-]+)$/;

/**
 * Files people send, fetched from the media repository with the bot's token (authenticated
 * media, `GET /_matrix/client/v1/media/download/{server}/{id}`): the address is made here, from
 * MATRIX_HOMESERVER_URL, so the token never goes where a message could point it.
 */
export function matrixDownloads(settings: ReadyMatrixSettings): Downloads {
  return appDownloads(MATRIX_CAPABILITIES.uploadBytes, 'a bot may download', async (attachment, signal) => {
    const mxc = MXC.exec(attachment.id);
    if (!mxc) throw new Error('Matrix gave no mxc:// address to download');
    const url = `${settings.homeserverUrl}/_matrix/client/v1/media/download/${encodeURIComponent(mxc[1]!)}/${encodeURIComponent(mxc[2]!)}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${settings.accessToken}` }, signal });
    if (!response.ok) throw new Error(`the homeserver answered ${response.status} for the file`);
    return response;
  });
}
