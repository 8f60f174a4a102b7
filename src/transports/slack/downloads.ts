import { saveDownload } from '../../engine/files/save-download.ts';
import { megabytes } from '../../engine/files/sizes.ts';
import type { Attachment, Downloads } from '../../kernel/ports/chat.ts';
import { SLACK_CAPABILITIES } from './capabilities.ts';

/**
 * Files people send, fetched from their `url_private_download` with the bot token (an
 * attachment's id is that URL). The token goes to Slack's own hosts only (or the configured
 * API's, a test's twin), never to an address a message could name. Slack answers a request it
 * does not accept with its sign-in page, HTML: that is an error, not the file.
 */
export class SlackDownloads implements Downloads {
  readonly maxBytes = SLACK_CAPABILITIES.uploadBytes;

  constructor(
    private readonly botToken: string,
    private readonly apiUrl: string,
  ) {}

  async download(attachment: Attachment, path: string, signal?: AbortSignal): Promise<void> {
    const url = this.trusted(attachment.id);
    const response = await fetch(url, { headers: { authorization: `Bearer ${this.botToken}` }, signal });
    if (/text\/html/i.test(response.headers.get('content-type') ?? '') && !/html/i.test(attachment.mimeType ?? ''))
      throw new Error('Slack sent its sign-in page instead of the file: the app needs the files:read scope (reinstall it from the manifest)');
    await saveDownload(response, path, { limit: this.maxBytes, tooBig: `it is over the ${megabytes(this.maxBytes)} a bot may download`, signal });
  }

  private trusted(address: string): string {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new Error('Slack gave no address to download it from');
    }
    const api = new URL(this.apiUrl);
    const slackHost =
      url.protocol === 'https:' && (url.hostname === 'slack.com' || url.hostname.endsWith('.slack.com') || url.hostname.endsWith('.slack-files.com'));
    if (!slackHost && url.origin !== api.origin) throw new Error(`its address (${url.host}) is not Slack's`);
    return url.href;
  }
}
