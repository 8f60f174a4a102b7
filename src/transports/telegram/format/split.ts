import { framed, type Frame } from '../../../kernel/rich/edit.ts';
import type { RichText } from '../../../kernel/rich/model.ts';
import { plainText } from '../../../kernel/rich/plain.ts';
import { nextChunk as nextRenderedChunk, splitRendered, type ChunkRange } from '../../../work/presentation/format/split.ts';
import { renderHtml } from './html.ts';

/** The most a message's text may hold, as sent (HTML) and as the plain fallback. */
export const TELEGRAM_MESSAGE_LIMIT = 4096;

/**
 * The messages `text` takes, `header` opening the first and `footer` closing the last: each
 * within the limit as HTML and as plain text, the header's and footer's room kept in every one.
 */
export function messagesOf(text: RichText, frame: Frame = {}): RichText[] {
  const room = (line: RichText | undefined) => (line ? Math.max(renderHtml(line).length, plainText(line).length) + 2 : 0);
  return framed(splitMessages(text, TELEGRAM_MESSAGE_LIMIT - room(frame.header) - room(frame.footer)), frame);
}

/**
 * Splits rich text into messages whose HTML and plain text are each at most
 * `limit` characters. Cuts prefer block boundaries, then lines, then words,
 * and only then fall inside a word (never inside a grapheme).
 */
export function splitMessages(rich: RichText, limit = TELEGRAM_MESSAGE_LIMIT): RichText[] {
  return splitRendered(rich, limit, renderHtml);
}

/** The longest well-cut chunk starting at `start`, measured as HTML. */
export function nextChunk(doc: RichText, start: number, limit: number): ChunkRange {
  return nextRenderedChunk(doc, start, limit, renderHtml);
}
