import type { ChatCapabilities } from '../../kernel/ports/capabilities.ts';
import { appCapabilities, fitWithin } from '../serving/app-capabilities.ts';
import { renderMarkdown } from '../../work/presentation/format/markdown.ts';

/**
 * What Mattermost lets a bot do, from its documented limits: one place, asked by the core.
 * - messageChars: a post holds 16,383 characters (the server's PostMessageMaxRunesV2);
 * - uploadBytes: FileSettings.MaxFileSize, 100 MB unless the operator changed it;
 * - buttonPayloadBytes: a button's integration context is the bot's own JSON, kept by the
 *   server; the bridge keeps it small;
 * - editsPerMinute: the API's rate limit is per token (10 a second, bursts of 100, by
 *   default), so one post's progress edits keep far under it: one a second.
 */
export const MATTERMOST_CAPABILITIES: ChatCapabilities = appCapabilities({
  messageChars: 16383,
  captionChars: 16383,
  uploadBytes: 100 * 1024 * 1024,
  photoBytes: 100 * 1024 * 1024,
  buttonPayloadBytes: 1024,
  buttonsPerRow: 5,
  editsPerMinute: 60,
});

/**
 * A channel's calls: Mattermost's limit is the token's (10 a second), not the channel's; five
 * calls in two seconds for one channel leaves room for the others and for look-ups.
 */
export const MATTERMOST_CHANNEL_LIMIT = { max: 5, windowMs: 2000 };

/** How text fits a Mattermost post: its Markdown within the post's 16,383 characters. */
export const MATTERMOST_FIT = fitWithin(MATTERMOST_CAPABILITIES.messageChars, renderMarkdown, 3000);
