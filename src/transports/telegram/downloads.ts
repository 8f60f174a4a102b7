import { saveDownload } from '../../engine/files/save-download.ts';
import { GrammyError, type Api } from 'grammy';
import type { Attachment, Downloads } from '../../kernel/ports/chat.ts';
import { megabytes } from '../../engine/files/sizes.ts';

/** The Bot API serves files up to 20 MB to bots (a self-hosted Bot API server, more). */
export const BOT_API_DOWNLOAD_LIMIT = 20 * 1024 * 1024;

/**
 * Files users send, fetched the Bot API's way: getFile for a path, then a GET of
 * `<apiRoot>/file/bot<token>/<path>`, streamed to disk and cut off past the limit.
 */
export class TelegramDownloads implements Downloads {
  readonly maxBytes = BOT_API_DOWNLOAD_LIMIT;

  constructor(
    private readonly api: Api,
    private readonly telegram: { token: string; apiRoot: string },
  ) {}

  async download(attachment: Attachment, path: string, signal?: AbortSignal): Promise<void> {
    // grammY types its signal with the abort-controller shim's class; Node's own is what it uses at run time.
    const file = await this.api.getFile(attachment.id, signal as Parameters<Api['getFile']>[1]).catch((error: unknown) => {
      if (error instanceof GrammyError && /file is too big/i.test(error.description))
        throw new Error(`it is over the ${megabytes(this.maxBytes)} a bot may download`);
      throw error;
    });
    if (!file.file_path) throw new Error('Telegram gave no path to download it from');
    const response = await fetch(`${this.telegram.apiRoot}/file/bot${this.telegram.token}/${file.file_path}`, signal ? { signal } : {});
    await saveDownload(response, path, { limit: this.maxBytes, tooBig: `it is over the ${megabytes(this.maxBytes)} a bot may download`, signal });
  }
}
