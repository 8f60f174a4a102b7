import { concat, slice } from '../../../kernel/rich/edit.ts';
import { plain } from '../../../kernel/rich/build.ts';
import { CutRank, type RichText } from '../../../kernel/rich/model.ts';
import { renderHtml } from './html.ts';
import { nextChunk } from './split.ts';

/** The most a caption may hold. */
export const TELEGRAM_CAPTION_LIMIT = 1024;

/** A long answer's preview leaves room in its caption for a header and the size line. */
const CAPTION_PREVIEW_CHARS = 700;

/** The opening of a long answer for the caption of the document carrying it. */
export function captionPreview(rich: RichText): RichText {
  return preview(rich, CAPTION_PREVIEW_CHARS);
}

/**
 * The opening of a long text whose HTML is at most `maxChars` characters,
 * e.g. for the caption of the file carrying the whole answer. It is cut where
 * a message split would be (paragraph, line, word) and ends with "…" when
 * anything was left out.
 */
export function preview(rich: RichText, maxChars = 900): RichText {
  if (renderHtml(rich).length <= maxChars) return rich;
  // Reserve room for the marker; after a paragraph or line it gets its own line.
  const chunk = nextChunk(rich, 0, maxChars - 2);
  return concat([slice(rich, chunk.start, chunk.end, { bare: chunk.bare }), plain(chunk.rank >= CutRank.line ? '\n…' : '…')]);
}
