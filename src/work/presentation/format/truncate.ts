import { graphemeCutBefore } from './graphemes.ts';

/**
 * Shortens `s` to at most `max` UTF-16 code units, cutting on a grapheme
 * boundary and ending with `ellipsis` when anything was removed.
 */
export function truncate(s: string, max: number, ellipsis = '…'): string {
  if (s.length <= max) return s;
  if (max <= 0) return '';
  const tail = ellipsis.length <= max ? ellipsis : '';
  const cut = graphemeCutBefore(s, 0, max - tail.length);
  return s.slice(0, cut).trimEnd() + tail;
}
