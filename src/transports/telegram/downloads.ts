import { GrammyError, type Api } from 'grammy';
import type { Downloads } from '../../kernel/ports/chat.ts';
import { appDownloads } from '../serving/incoming.ts';

/** The Bot API serves files up to 20 MB to bots (a self-hosted Bot API server, more). */
const BOT_API_DOWNLOAD_LIMIT = 20 * 1024 * 1024;

/**
 * Files users send, fetched the Bot API's way: getFile for a path, then a GET of
 * `<apiRoot>/file/bot<token>/<path>`, streamed to disk and cut off past the limit.
 */
export function telegramDownloads(api: Api, telegram: { token: string; apiRoot: string }): Downloads {
  return appDownloads(BOT_API_DOWNLOAD_LIMIT, 'a bot may download', async (attachment, signal, tooBig) => {
    // grammY types its signal with the abort-controller shim's class; Node's own is what it uses at run time.
    const file = await api.getFile(attachment.id, signal as Parameters<Api['getFile']>[1]).catch((error: unknown) => {
      throw error instanceof GrammyError && /file is too big/i.test(error.description) ? new Error(tooBig) : error;
    });
    if (!file.file_path) throw new Error('Telegram gave no path to download it from');
    return fetch(`${telegram.apiRoot}/file/bot${telegram.token}/${file.file_path}`, signal ? { signal } : {});
  });
}
