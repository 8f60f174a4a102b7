import type { ChatCapabilities } from '../../kernel/ports/capabilities.ts';
import { appCapabilities, fitWithin } from '../serving/app-capabilities.ts';
import { teamsMarkup } from './cards.ts';

/**
 * What Teams lets a bot do, from its documented limits: one place, asked by the core.
 * - messageChars: a bot's activity may be about 28 KB in all; 4,000 characters of text keep
 *   a message (and an Adaptive Card with its buttons) well within it, and readable;
 * - uploadBytes: a bot in a channel or group chat cannot share files (that takes SharePoint);
 *   a file goes inline in the message, so it must fit the 28 KB with its base64: 18 KB;
 * - buttonPayloadBytes: a card action's data is the bot's own; the card's size bounds it;
 * - editsPerMinute: a bot may send 7 calls a second, 60 in 30 s, in one conversation:
 *   progress keeps to one edit every two seconds.
 */
export const TEAMS_CAPABILITIES: ChatCapabilities = appCapabilities({
  messageChars: 4000,
  captionChars: 1000,
  uploadBytes: 18 * 1024,
  photoBytes: 18 * 1024,
  buttonPayloadBytes: 1000,
  buttonsPerRow: 5,
  editsPerMinute: 30,
  reactions: false,
});

/** One conversation's calls: two a second keeps under Teams' 7 a second and 60 in 30 s, new messages and edits together. */
export const TEAMS_CONVERSATION_LIMIT = { max: 2, windowMs: 1000 };

/** How text fits a Teams message: each within its limit as its markup is sent. */
export const TEAMS_FIT = fitWithin(TEAMS_CAPABILITIES.messageChars, teamsMarkup, 1500);
