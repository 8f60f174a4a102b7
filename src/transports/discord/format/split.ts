import type { Frame } from '../../../kernel/rich/edit.ts';
import type { RichText } from '../../../kernel/rich/model.ts';
import { messagesWithin, previewWithin } from '../../../work/presentation/format/split.ts';
import type { MessageFit } from '../../../kernel/ports/capabilities.ts';
import { DISCORD_CAPABILITIES } from '../capabilities.ts';
import { renderMarkdown } from '../../../work/presentation/format/markdown.ts';

/** The messages `text` takes on Discord: each within 2,000 characters as its Markdown is sent. */
export function discordMessages(text: RichText, frame: Frame = {}): RichText[] {
  return messagesWithin(text, DISCORD_CAPABILITIES.messageChars, renderMarkdown, frame);
}

/** A long answer's preview leaves room in its message for a header and the size line. */
const PREVIEW_CHARS = 1500;

/** The opening of a long answer, for the message carrying it as a file. */
export function discordPreview(rich: RichText): RichText {
  return previewWithin(rich, PREVIEW_CHARS, renderMarkdown);
}

/** How text fits a Discord message. */
export const DISCORD_FIT: MessageFit = Object.freeze({ split: discordMessages, preview: discordPreview });
