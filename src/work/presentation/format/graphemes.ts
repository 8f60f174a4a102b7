// Cut positions that never split a user-perceived character (emoji with
// modifiers, flags, combining marks) and, at worst, never a surrogate pair.

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Grapheme clusters are short; this much lookahead settles any boundary. */
const LOOKAHEAD = 64;
/** How far back to look for a known boundary to segment from. */
const LOOKBEHIND = 256;

/**
 * True when `at` is certainly a grapheme boundary without segmenting: no
 * Unicode rule joins two characters below U+0300 except CR LF.
 */
function isSimpleBoundary(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  if (Number.isNaN(before) || Number.isNaN(after)) return true; // string edge
  return before < 0x300 && after < 0x300 && !(before === 0x0d && after === 0x0a);
}

/**
 * The largest grapheme boundary `b` with `from < b <= to`, or `from` when the
 * first grapheme after `from` is itself longer than `to - from`.
 */
export function graphemeCutBefore(text: string, from: number, to: number): number {
  if (to <= from) return from;
  if (isSimpleBoundary(text, to)) return to;
  // Intl.Segmenter is slow on long text, so segment only from a nearby known
  // boundary (segmenting from an arbitrary offset could misread flag pairs).
  let origin = to - 1;
  while (origin > from && origin > to - LOOKBEHIND && !isSimpleBoundary(text, origin)) origin--;
  if (origin > from && !isSimpleBoundary(text, origin)) origin = from;
  const window = text.slice(origin, Math.min(text.length, to + LOOKAHEAD));
  let best = origin;
  for (const { index, segment } of segmenter.segment(window)) {
    const end = origin + index + segment.length;
    if (end > to) break;
    best = end;
  }
  return best;
}

/** `at`, moved back by one if it would separate a surrogate pair. */
export function codePointCutBefore(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at;
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  const splitsPair = before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
  return splitsPair ? at - 1 : at;
}
