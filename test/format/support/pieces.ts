import { expect } from 'vitest';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Asserts that `pieces`, in order, make up `whole` with nothing lost or
 * repeated: only whitespace may be dropped between pieces, and a piece that
 * follows the previous one directly must start on a grapheme boundary.
 */
export function expectPiecesOf(whole: string, pieces: readonly string[]): void {
  let pos = 0;
  pieces.forEach((piece, i) => {
    let at = pos;
    while (!whole.startsWith(piece, at) && at < whole.length && /\s/.test(whole.charAt(at))) at++;
    if (!whole.startsWith(piece, at)) {
      const got = JSON.stringify(piece.slice(0, 60));
      expect.fail(`piece ${i} not found at ${pos}: ${got} vs ${JSON.stringify(whole.slice(pos, pos + 60))}`);
    }
    if (at === pos && i > 0) expect(isGraphemeBoundary(whole, at), `cut at ${at} splits a grapheme`).toBe(true);
    pos = at + piece.length;
  });
  expect(whole.slice(pos).trim()).toBe('');
}

/**
 * Segments only a little text before `at`: Intl.Segmenter is very slow on
 * long strings. The window starts where a boundary is certain: after a
 * newline, or between two characters below U+0300 (no rule joins those).
 */
function isGraphemeBoundary(text: string, at: number): boolean {
  let from = Math.max(text.lastIndexOf('\n', at - 1) + 1, at - 500); // 500: even for runs of flag halves
  for (let p = at - 1; p > Math.max(from, at - 300); p--) {
    if (text.charCodeAt(p - 1) < 0x300 && text.charCodeAt(p) < 0x300 && text.charAt(p - 1) !== '\r') {
      from = p;
      break;
    }
  }
  for (const { index } of graphemes.segment(text.slice(from, at + 64))) {
    if (from + index === at) return true;
    if (from + index > at) return false;
  }
  return false;
}
