import { codePointCutBefore, graphemeCutBefore } from './graphemes.ts';
import { concat, framed, slice, type Frame } from '../../../kernel/rich/edit.ts';
import { plain } from '../../../kernel/rich/build.ts';
import { CutRank, type Cut, type RichText } from '../../../kernel/rich/model.ts';
import { plainText } from '../../../kernel/rich/plain.ts';
import type { RangeOptions } from '../../../kernel/rich/range.ts';

// Cutting rich text into messages of a transport's size, measured as that transport renders
// it (its markup) and as plain text: each transport passes its renderer and its limit.

/** How a transport writes a range of rich text (its markup). */
export type Render = (rich: RichText, from: number, to: number, options?: RangeOptions) => string;

/** Below this the markup around a single character might not fit. */
const MIN_LIMIT = 16;

/**
 * Splits rich text into messages whose markup (as `render` writes it) and plain text are each
 * at most `limit` characters. Cuts prefer block boundaries, then lines, then words, and only
 * then fall inside a word (never inside a grapheme).
 */
export function splitRendered(rich: RichText, limit: number, render: Render): RichText[] {
  const messages: RichText[] = [];
  for (let at = 0; at < rich.text.length;) {
    const { start, end, next, bare } = nextChunk(rich, at, limit, render);
    // Whitespace-only pieces (blank lines at a cut) would be empty messages.
    if (rich.text.slice(start, end).trim() !== '') messages.push(slice(rich, start, end, { bare }));
    at = next;
  }
  return messages;
}

/**
 * The messages `rich` takes where a message holds `limit` characters as `render` writes it,
 * `header` opening the first and `footer` closing the last (each line with room for itself).
 */
export function messagesWithin(rich: RichText, limit: number, render: Render, frame: Frame = {}): RichText[] {
  const room = (line: RichText | undefined) => (line ? Math.max(render(line, 0, line.text.length).length, plainText(line).length) + 2 : 0);
  return framed(splitRendered(rich, limit - room(frame.header) - room(frame.footer), render), frame);
}

/** The opening of a long text, for the message carrying it as a file: at most `chars` as rendered, cut where a split would cut, "…" after. */
export function previewWithin(rich: RichText, chars: number, render: Render): RichText {
  if (render(rich, 0, rich.text.length).length <= chars) return rich;
  const chunk = nextChunk(rich, 0, chars - 2, render);
  return concat([slice(rich, chunk.start, chunk.end, { bare: chunk.bare }), plain(chunk.rank >= CutRank.line ? '\n…' : '…')]);
}

/** A chunk as a range of RichText.text, and how cleanly it was cut. */
interface ChunkRange {
  readonly start: number;
  readonly end: number;
  /** Where the next chunk starts (after whitespace dropped at the cut). */
  readonly next: number;
  /** Rank of the cut used, 0 for a cut inside a word, Infinity at the end. */
  readonly rank: number;
  /** Rendered without markup because even one character plus its tags didn't fit. */
  readonly bare: boolean;
}

/** The longest well-cut chunk starting at `start`. */
function nextChunk(doc: RichText, start: number, limit: number, render: Render): ChunkRange {
  if (!(limit >= MIN_LIMIT)) throw new RangeError(`limit must be at least ${MIN_LIMIT}, got ${limit}`);
  const end = doc.text.length;
  const fitsWith =
    (bare: boolean) =>
    (to: number): boolean =>
      render(doc, start, to, { bare }).length <= limit && plainText(doc, start, to, { bare }).length <= limit;

  // Markup and plain text are never shorter than the visible text they carry.
  if (end - start <= limit && fitsWith(false)(end)) return { start, end, next: end, rank: Infinity, bare: false };

  // Markup is dropped only when tags (say, a long link target) leave no room
  // for even one character; one bare code point always fits in MIN_LIMIT.
  for (const bare of [false, true]) {
    const reach = longestFit(start, Math.min(end, start + limit), fitsWith(bare));
    const cut = bestCut(doc.cuts, start, reach);
    if (cut) return { start, end: cut.at, next: cut.at + cut.skip, rank: cut.rank, bare };
    const inWord = cutInsideWord(doc.text, start, reach);
    if (inWord > start) return { start, end: inWord, next: inWord, rank: 0, bare };
  }
  throw new Error(`no chunk fits in ${limit} characters at offset ${start}`);
}

/**
 * The largest `to` in (from, max] with fits(to), else `from`, by binary search: `fits` holds
 * for every smaller `to` once it holds for one (rendered length only grows as a range is
 * extended; an export only grows with what it keeps).
 */
export function longestFit(from: number, max: number, fits: (to: number) => boolean): number {
  let lo = from;
  let hi = max;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The highest-ranked cut in (from, to]; the latest among equals. */
function bestCut(cuts: readonly Cut[], from: number, to: number): Cut | undefined {
  let best: Cut | undefined;
  for (let i = firstCutAfter(cuts, from); i < cuts.length; i++) {
    const cut = cuts[i];
    if (!cut || cut.at > to) break;
    if (!best || cut.rank >= best.rank) best = cut;
  }
  return best;
}

function firstCutAfter(cuts: readonly Cut[], offset: number): number {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cuts[mid]?.at ?? 0) <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A grapheme boundary, or a code point boundary if one grapheme is too long. */
function cutInsideWord(text: string, from: number, to: number): number {
  const grapheme = graphemeCutBefore(text, from, to);
  return grapheme > from ? grapheme : codePointCutBefore(text, to);
}
