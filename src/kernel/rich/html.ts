import type { RichText, RunStyle } from './model.ts';
import { clipped, type RangeOptions } from './range.ts';

// Rich text as an app's HTML: each run's tags derived from its style and nested in one fixed
// order, so any range, cut mid-run, is balanced HTML, and a chunk ending inside a code block
// closes it (the next chunk opens it again). Each app names its own tags (HtmlTags).

/** One element as an app writes it. */
export interface HtmlElement {
  readonly open: string;
  readonly close: string;
}

/** How one app's HTML writes the styles, and the text of a run. */
export interface HtmlTags {
  bold: HtmlElement;
  italic: HtmlElement;
  strike: HtmlElement;
  code: HtmlElement;
  quote: HtmlElement;
  /** A preformatted block, in a language or none (''). */
  pre(language: string): HtmlElement;
  /** Whether code inside a preformatted block is tagged as code too. */
  codeInPre: boolean;
  /** A run's text, escaped; `preformatted` inside a block. */
  text(text: string, preformatted: boolean): string;
}

interface Tag extends HtmlElement {
  /** Tags with equal ids are the same open element (links compare by target identity). */
  readonly id: unknown;
}

/** Outermost first: quote > pre > link > bold > italic > strike > code. */
function tagsFor(style: RunStyle, html: HtmlTags): Tag[] {
  const tags: Tag[] = [];
  if (style.quote) tags.push({ id: 'quote', ...html.quote });
  if (style.pre !== null) tags.push({ id: `pre:${style.pre}`, ...html.pre(style.pre) });
  if (style.link !== null) tags.push({ id: style.link, open: `<a href="${escapeHtml(style.link.href)}">`, close: '</a>' });
  if (style.bold) tags.push({ id: 'bold', ...html.bold });
  if (style.italic) tags.push({ id: 'italic', ...html.italic });
  if (style.strike) tags.push({ id: 'strike', ...html.strike });
  if (style.code && (style.pre === null || html.codeInPre)) tags.push({ id: 'code', ...html.code });
  return tags;
}

/** rich.text[from, to) as the app's HTML. */
export function renderHtmlWith(html: HtmlTags, rich: RichText, from = 0, to = rich.text.length, { bare = false }: RangeOptions = {}): string {
  let out = '';
  let open: Tag[] = [];
  for (const { run, text } of clipped(rich, from, to)) {
    const wanted = bare ? [] : tagsFor(run.style, html);
    let keep = 0;
    while (keep < open.length && keep < wanted.length && open[keep]?.id === wanted[keep]?.id) keep++;
    for (let i = open.length - 1; i >= keep; i--) out += open[i]?.close ?? '';
    for (let i = keep; i < wanted.length; i++) out += wanted[i]?.open ?? '';
    open = wanted;
    out += html.text(text, run.style.pre !== null && !bare);
  }
  for (let i = open.length - 1; i >= 0; i--) out += open[i]?.close ?? '';
  return out;
}

/** Text safe as HTML, in an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return /[&<>"]/.test(text) ? text.replace(/[&<>"]/g, (c) => ESCAPES[c]!) : text;
}

/** Text safe as an element's: `"` left alone keeps code-heavy text shorter where limits count the HTML. */
export function escapeHtmlText(text: string): string {
  return /[&<>]/.test(text) ? text.replace(/[&<>]/g, (c) => ESCAPES[c]!) : text;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
