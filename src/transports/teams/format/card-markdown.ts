import type { RichText, RunStyle } from '../../../kernel/rich/model.ts';
import { UNSTYLED } from '../../../kernel/rich/model.ts';
import { clipped, type RangeOptions } from '../../../kernel/rich/range.ts';

// An Adaptive Card's text block as Teams renders it: a Markdown subset of **bold**, _italic_,
// [links](…) and lists; no code, quote or strike, which go as their text (a card's text block
// cannot show code as code, so it is written unmarked, its characters as typed). Whatever the
// text block would read as markup is escaped, and a line break is a blank line there (a
// single one reads as a space). Each run is wrapped on its own, line by line, so any range
// renders whole.

/** What the text block reads as markup: emphasis, a link's brackets, code spans, escapes. */
const MARKUP = /[\\*_[\]`]/g;

export function escapeCardMarkdown(text: string): string {
  return text.replace(MARKUP, '\\$&');
}

/** A link's target inside (…): a parenthesis or a space would end it. */
function target(href: string): string {
  return href.replace(/[()<> \t]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function wrapInline(text: string, style: RunStyle): string {
  const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text) ?? [];
  if (core === '') return text;
  let out = escapeCardMarkdown(core);
  if (style.link) out = `[${out}](${target(style.link.href)})`;
  if (style.italic) out = `_${out}_`;
  if (style.bold) out = `**${out}**`;
  return `${lead}${out}${trail}`;
}

/** A card's text block for rich.text[from, to). */
export function renderCardMarkdown(rich: RichText, from = 0, to = rich.text.length, { bare = false }: RangeOptions = {}): string {
  let out = '';
  for (const { run, text } of clipped(rich, from, to)) {
    const style = bare ? UNSTYLED : run.style;
    out += text
      .split('\n')
      .map((line) => wrapInline(line, style))
      .join('\n\n');
  }
  return out;
}
