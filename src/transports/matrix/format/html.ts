import type { RichText, RunStyle } from '../../../kernel/rich/model.ts';
import { clipped, type RangeOptions } from '../../../kernel/rich/range.ts';

// Rich text as Matrix's `org.matrix.custom.html`: the tags the spec lets clients show, nested in
// a fixed order so that any range, cut mid-run, is balanced HTML. Lines outside preformatted
// blocks are joined by <br>, as HTML would run them together.

interface Tag {
  /** Tags with equal ids are the same open element (links compare by target identity). */
  readonly id: unknown;
  readonly open: string;
  readonly close: string;
}

const QUOTE: Tag = { id: 'blockquote', open: '<blockquote>', close: '</blockquote>' };
const BOLD: Tag = { id: 'b', open: '<strong>', close: '</strong>' };
const ITALIC: Tag = { id: 'i', open: '<em>', close: '</em>' };
const STRIKE: Tag = { id: 'del', open: '<del>', close: '</del>' };
const CODE: Tag = { id: 'code', open: '<code>', close: '</code>' };

function preTag(lang: string): Tag {
  return lang === ''
    ? { id: 'pre', open: '<pre><code>', close: '</code></pre>' }
    : { id: `pre:${lang}`, open: `<pre><code class="language-${escapeHtml(lang)}">`, close: '</code></pre>' };
}

/** Outermost first: quote > pre > link > strong > em > del > code. */
function tagsFor(style: RunStyle): Tag[] {
  const tags: Tag[] = [];
  if (style.quote) tags.push(QUOTE);
  if (style.pre !== null) tags.push(preTag(style.pre));
  if (style.link !== null) tags.push({ id: style.link, open: `<a href="${escapeHtml(style.link.href)}">`, close: '</a>' });
  if (style.bold) tags.push(BOLD);
  if (style.italic) tags.push(ITALIC);
  if (style.strike) tags.push(STRIKE);
  if (style.code && style.pre === null) tags.push(CODE);
  return tags;
}

/** The `formatted_body` for rich.text[from, to). */
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
    html += run.style.pre !== null && !bare ? escapeHtml(text) : escapeHtml(text).replaceAll('\n', '<br>');
  }
  for (let i = open.length - 1; i >= 0; i--) html += open[i]?.close ?? '';
  return html;
}

/** Text safe as HTML, in an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return /[&<>"]/.test(text) ? text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!) : text;
}
