import type { ChatCapabilities } from '../../kernel/ports/capabilities.ts';
import { appCapabilities, fitWithin } from '../serving/app-capabilities.ts';
import { renderMarkdown } from '../../work/presentation/format/markdown.ts';

/**
 * What a Discord chat can take, said once: the core asks, and nothing outside this folder
 * names a Discord limit.
 */
export const DISCORD_CAPABILITIES: ChatCapabilities = appCapabilities({
  /** A message's content. */
  messageChars: 2000,
  /** A file's message text is its content: the same limit. */
  captionChars: 2000,
  /** Uploads a bot may make in a server without boosts (more in boosted ones; 10 MiB holds everywhere). */
  uploadBytes: 10 * 1024 * 1024,
  photoBytes: 10 * 1024 * 1024,
  /** A button's custom_id. */
  buttonPayloadBytes: 100,
  buttonsPerRow: 5,
  /** Five a channel every five seconds, messages and edits together: a progress message gets half. */
  editsPerMinute: 30,
});

/** A channel's messages (new ones and edits alike): Discord's per-channel bucket. */
export const DISCORD_CHANNEL_LIMIT = { max: 5, windowMs: 5000 };

/** Rows of buttons one message holds. */
export const DISCORD_BUTTON_ROWS = 5;
/** A button's label. */
export const DISCORD_LABEL_CHARS = 80;

/** How text fits a Discord message: each within 2,000 characters as its Markdown is sent. */
export const DISCORD_FIT = fitWithin(DISCORD_CAPABILITIES.messageChars, renderMarkdown, 1500);
