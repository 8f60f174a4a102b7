import { codePointCutBefore, graphemeCutBefore } from './graphemes.ts';
import { framed, slice, type Frame } from '../../rich/edit.ts';
import type { Cut, RichText } from '../../rich/model.ts';
import type { RangeOptions } from '../../rich/range.ts';

/** How long a range of rich text is once a transport renders it (its markup, or plain text). */
export type Measure = (rich: RichText, from: number, to: number, options: RangeOptions) => number;

/** Below this the markup around a single character might not fit. */
const MIN_LIMIT = 16;

export interface Chunk {
  readonly start: number;
  readonly end: number;
  /** Where the next chunk starts (after whitespace dropped at the cut). */
  readonly next: number;
  /** Rank of the cut used, 0 for a cut inside a word, Infinity at the end. */
  readonly rank: number;
  /** Rendered without styles because even one character and its markup didn't fit. */
  readonly bare: boolean;
}

/**
 * The messages `rich` takes on a transport whose messages hold `limit` characters as `measure`
 * renders them, `header` opening the first and `footer` closing the last: cut between blocks,
 * then lines, then words, and only then inside a word (never inside a grapheme).
 */
export function messagesWithin(rich: RichText, limit: number, measure: Measure, frame: Frame = {}): RichText[] {
  const room = (line: RichText | undefined) => (line ? measure(line, 0, line.text.length, {}) + 2 : 0);
  return framed(chunksWithin(rich, limit - room(frame.header) - room(frame.footer), measure), frame);
}

export function chunksWithin(rich: RichText, limit: number, measure: Measure): RichText[] {
  const chunks: RichText[] = [];
  for (let at = 0; at < rich.text.length;) {
    const chunk = nextChunkWithin(rich, at, limit, measure);
    // Whitespace-only pieces (blank lines at a cut) would be empty messages.
    if (rich.text.slice(chunk.start, chunk.end).trim() !== '') chunks.push(slice(rich, chunk.start, chunk.end, { bare: chunk.bare }));
    at = chunk.next;
  }
  return chunks;
}

/** The longest well-cut chunk starting at `start` whose rendering fits in `limit`. */
export function nextChunkWithin(rich: RichText, start: number, limit: number, measure: Measure): Chunk {
  if (!(limit >= MIN_LIMIT)) throw new RangeError(`limit must be at least ${MIN_LIMIT}, got ${limit}`);
  const end = rich.text.length;
  const fitsWith = (bare: boolean) => (to: number) => measure(rich, start, to, { bare }) <= limit;
  if (end - start <= limit && fitsWith(false)(end)) return { start, end, next: end, rank: Infinity, bare: false };
  for (const bare of [false, true]) {
    const reach = longestFit(start, Math.min(end, start + limit), fitsWith(bare));
    const cut = bestCut(rich.cuts, start, reach);
    if (cut) return { start, end: cut.at, next: cut.at + cut.skip, rank: cut.rank, bare };
    const grapheme = graphemeCutBefore(rich.text, start, reach);
    const inWord = grapheme > start ? grapheme : codePointCutBefore(rich.text, reach);
    if (inWord > start) return { start, end: inWord, next: inWord, rank: 0, bare };
  }
  throw new Error(`no chunk fits in ${limit} characters at offset ${start}`);
}

/** The largest `to` in [from, max] with fits(to): a rendering only grows as its range does. */
function longestFit(from: number, max: number, fits: (to: number) => boolean): number {
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
  for (const cut of cuts) {
    if (cut.at <= from) continue;
    if (cut.at > to) break;
    if (!best || cut.rank >= best.rank) best = cut;
  }
  return best;
}
