import { CutRank } from './model.ts';
import { parseDoc } from './parse.ts';
import { renderHtml } from './serialize.ts';
import { nextChunk } from './split.ts';

export const TELEGRAM_CAPTION_LIMIT = 1024;

/**
 * The opening of a long answer as Telegram HTML of at most `maxChars`
 * characters, e.g. for the caption of the file carrying the whole answer.
 * It is cut where a message split would be (paragraph, line, word) and ends
 * with "…" when anything was left out.
 */
export function documentPreview(md: string, maxChars = 900): string {
  const doc = parseDoc(md);
  const whole = renderHtml(doc);
  if (whole.length <= maxChars) return whole;
  // Reserve room for the marker; after a paragraph or line it gets its own line.
  const chunk = nextChunk(doc, 0, maxChars - 2);
  const html = renderHtml(doc, chunk.start, chunk.end, { bare: chunk.bare });
  return html + (chunk.rank >= CutRank.line ? '\n…' : '…');
}
