import type { RichText } from './model.ts';
import { clipped, type RangeOptions } from './range.ts';

/**
 * Rich text as plain text: what a transport without styles shows, and a styled one's
 * fallback. The visible text, with each link's target after its label when the label
 * does not already show it.
 */
export function plainText(rich: RichText, from = 0, to = rich.text.length, { bare = false }: RangeOptions = {}): string {
  let plain = '';
  for (const { run, text, ends } of clipped(rich, from, to)) {
    plain += text;
    if (ends && !bare) plain += run.plainSuffix;
  }
  return plain;
}
