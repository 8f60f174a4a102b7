import type { ChatCapabilities } from '../../kernel/ports/capabilities.ts';
import { appCapabilities } from '../serving/app-capabilities.ts';
import { TELEGRAM_CAPTION_LIMIT, TELEGRAM_MESSAGE_LIMIT } from './format/index.ts';

/** What a Telegram chat can do, from the Bot API's documented limits. */
export const TELEGRAM_CAPABILITIES: ChatCapabilities = appCapabilities({
  messageChars: TELEGRAM_MESSAGE_LIMIT,
  captionChars: TELEGRAM_CAPTION_LIMIT,
  // A bot uploads up to 50 MB; photos up to 10 MB show inline.
  uploadBytes: 50 * 1024 * 1024,
  photoBytes: 10 * 1024 * 1024,
  buttonPayloadBytes: 64,
  buttonsPerRow: 8,
  // A private chat takes a call a second; a group's 20 a minute are kept by the send budget.
  editsPerMinute: 60,
});
