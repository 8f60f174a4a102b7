import type { ChatCapabilities } from '../../kernel/ports/capabilities.ts';
import { appCapabilities, fitWithin } from '../serving/app-capabilities.ts';
import { renderMrkdwn } from './format/mrkdwn.ts';
import { SLASH_COMMAND } from './app-manifest.ts';

/**
 * What Slack lets a bot do, from its documented limits: one place, asked by the core.
 * - messageChars: a section block's text holds 3,000 characters (a message's `text` 40,000,
 *   but Slack asks for 4,000 at most, and a message that gains buttons shows its text in a section);
 * - uploadBytes: files.getUploadURLExternal takes files up to 1 GB;
 * - buttonPayloadBytes: a button's `value` holds 2,000 characters; an actions block 25 elements;
 * - editsPerMinute: chat.update is a Tier 3 method (about 50 a minute).
 */
export const SLACK_CAPABILITIES: ChatCapabilities = appCapabilities({
  messageChars: 3000,
  captionChars: 3000,
  uploadBytes: 1024 * 1024 * 1024,
  photoBytes: 1024 * 1024 * 1024,
  buttonPayloadBytes: 2000,
  buttonsPerRow: 25,
  editsPerMinute: 50,
  // `/status` is Slack's own: the bridge's commands go through its one slash command.
  commandPrefix: `${SLASH_COMMAND} `,
});

/**
 * How text fits Slack's messages: each within a section block's limit as mrkdwn (what a message
 * with buttons shows its text in) and as plain text, so a message can gain buttons later without
 * growing past it; a long answer's opening, for the comment of the snippet that carries it
 * whole, within 700.
 */
export const SLACK_FIT = fitWithin(SLACK_CAPABILITIES.messageChars, renderMrkdwn, 700);
