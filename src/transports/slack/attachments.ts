import type { Attachment, Downloads } from '../../kernel/ports/chat.ts';
import { appDownloads, fileAttachment } from '../serving/incoming.ts';
import { SLACK_CAPABILITIES } from './capabilities.ts';

/** A file of a Slack message event, as far as the bridge reads it. */
export interface SlackEventFile {
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

/**
 * Files people send, fetched from their `url_private_download` with the bot token (an
 * attachment's id is that URL). The token goes to Slack's own hosts only (or the configured
 * API's, a test's twin), never to an address a message could name. Slack answers a request it
 * does not accept with its sign-in page, HTML: that is an error, not the file.
 */
export function slackDownloads(botToken: string, apiUrl: string): Downloads {
  return appDownloads(SLACK_CAPABILITIES.uploadBytes, 'a bot may download', async (attachment, signal) => {
    const response = await fetch(trusted(attachment.id, apiUrl), { headers: { authorization: `Bearer ${botToken}` }, signal });
    if (/text\/html/i.test(response.headers.get('content-type') ?? '') && !/html/i.test(attachment.mimeType ?? ''))
      throw new Error('Slack sent its sign-in page instead of the file: the app needs the files:read scope (reinstall it from the manifest)');
    return response;
  });
}

function trusted(address: string, apiUrl: string): string {
  if (!URL.canParse(address)) throw new Error('Slack gave no address to download it from');
  const url = new URL(address);
  const slackHost =
    url.protocol === 'https:' && (url.hostname === 'slack.com' || url.hostname.endsWith('.slack.com') || url.hostname.endsWith('.slack-files.com'));
  if (!slackHost && url.origin !== new URL(apiUrl).origin) throw new Error(`its address (${url.host}) is not Slack's`);
  return url.href;
}
