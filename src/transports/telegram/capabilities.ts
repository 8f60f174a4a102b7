import type { ChatCapabilities } from '../../kernel/ports/capabilities.ts';
import { appCapabilities, fitWithin } from '../serving/app-capabilities.ts';
import { renderHtml } from './format/html.ts';

/** What a Telegram chat can do, from the Bot API's documented limits. */
export const TELEGRAM_CAPABILITIES: ChatCapabilities = appCapabilities({
  // A message's text, and a caption, as sent (HTML) and as the plain fallback.
  messageChars: 4096,
  captionChars: 1024,
  // A bot uploads up to 50 MB; photos up to 10 MB show inline.
  uploadBytes: 50 * 1024 * 1024,
  photoBytes: 10 * 1024 * 1024,
  buttonPayloadBytes: 64,
  buttonsPerRow: 8,
  // A private chat takes a call a second; a group's 20 a minute are kept by the send budget.
  editsPerMinute: 60,
});

/** Cut as Telegram counts: the HTML as rendered; a long answer's preview leaves room in its caption for a header and the size line. */
export const TELEGRAM_FIT = fitWithin(TELEGRAM_CAPABILITIES.messageChars, renderHtml, 700);
