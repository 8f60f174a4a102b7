import type { RichText, RunStyle } from '../../../kernel/rich/model.ts';
import { clipped, type RangeOptions } from '../../../kernel/rich/range.ts';
import { escapeHtml, escapeText } from './escape.ts';

// Renders a range of rich text as Telegram HTML. Tags are derived per run and
// nested in a fixed order, so any range, including one cut mid-run, yields
// balanced HTML and a chunk ending inside a code block closes it (the next
// chunk reopens it).

interface Tag {
  /** Tags with equal ids are the same open element (links compare by target identity). */
  readonly id: unknown;
  readonly open: string;
  readonly close: string;
}

const QUOTE: Tag = { id: 'blockquote', open: '<blockquote>', close: '</blockquote>' };
const BOLD: Tag = { id: 'b', open: '<b>', close: '</b>' };
const ITALIC: Tag = { id: 'i', open: '<i>', close: '</i>' };
const STRIKE: Tag = { id: 's', open: '<s>', close: '</s>' };
const CODE: Tag = { id: 'code', open: '<code>', close: '</code>' };

function preTag(lang: string): Tag {
  return lang === ''
    ? { id: 'pre', open: '<pre>', close: '</pre>' }
    : { id: `pre:${lang}`, open: `<pre><code class="language-${escapeHtml(lang)}">`, close: '</code></pre>' };
}

/** Outermost first: quote > pre > link > b > i > s > code. */
function tagsFor(style: RunStyle): Tag[] {
  const tags: Tag[] = [];
  if (style.quote) tags.push(QUOTE);
  if (style.pre !== null) tags.push(preTag(style.pre));
  if (style.link !== null) {
    tags.push({ id: style.link, open: `<a href="${escapeHtml(style.link.href)}">`, close: '</a>' });
  }
  if (style.bold) tags.push(BOLD);
  if (style.italic) tags.push(ITALIC);
  if (style.strike) tags.push(STRIKE);
  if (style.code) tags.push(CODE);
  return tags;
}

/** Telegram HTML (parse_mode: 'HTML') for rich.text[from, to). */
export function renderHtml(rich: RichText, from = 0, to = rich.text.length, { bare = false }: RangeOptions = {}): string {
  let html = '';
  let open: Tag[] = [];
  for (const { run, text } of clipped(rich, from, to)) {
    const wanted = bare ? [] : tagsFor(run.style);
    let keep = 0;
    while (keep < open.length && keep < wanted.length && open[keep]?.id === wanted[keep]?.id) keep++;
    for (let i = open.length - 1; i >= keep; i--) html += open[i]?.close ?? '';
    for (let i = keep; i < wanted.length; i++) html += wanted[i]?.open ?? '';
    open = wanted;
    html += escapeText(text);
  }
  for (let i = open.length - 1; i >= 0; i--) html += open[i]?.close ?? '';
  return html;
}
