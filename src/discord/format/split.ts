import { concat, slice, type Frame } from '../../rich/edit.ts';
import { plain } from '../../rich/build.ts';
import { messagesWithin, nextChunkWithin, type Measure } from '../../presentation/format/chunks.ts';
import { CutRank, type RichText } from '../../rich/model.ts';
import type { MessageFit } from '../../ports/capabilities.ts';
import { DISCORD_CAPABILITIES } from '../capabilities.ts';
import { renderMarkdown } from './markdown.ts';

const markdownLength: Measure = (rich, from, to, options) => renderMarkdown(rich, from, to, options).length;

/** The messages `text` takes on Discord: each within 2,000 characters as its Markdown is sent. */
export function discordMessages(text: RichText, frame: Frame = {}): RichText[] {
  return messagesWithin(text, DISCORD_CAPABILITIES.messageChars, markdownLength, frame);
}

/** A long answer's preview leaves room in its message for a header and the size line. */
const PREVIEW_CHARS = 1500;

/** The opening of a long answer, for the message carrying it as a file: cut where a split would cut, "…" after. */
export function discordPreview(rich: RichText): RichText {
  if (renderMarkdown(rich).length <= PREVIEW_CHARS) return rich;
  const chunk = nextChunkWithin(rich, 0, PREVIEW_CHARS - 2, markdownLength);
  return concat([slice(rich, chunk.start, chunk.end, { bare: chunk.bare }), plain(chunk.rank >= CutRank.line ? '\n…' : '…')]);
}

/** How text fits a Discord message. */
export const DISCORD_FIT: MessageFit = Object.freeze({ split: discordMessages, preview: discordPreview });
