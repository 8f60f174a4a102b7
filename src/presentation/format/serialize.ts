import { escapeHtml, escapeText } from './escape.ts';
import type { Doc, Run, RunStyle } from './model.ts';

// Renders a range of a Doc. Tags are derived per run and nested in a fixed
// order, so any range, including one cut mid-run, yields balanced HTML and
// a chunk ending inside a code block closes it (the next chunk reopens it).

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

/** Each run overlapping [from, to), with its text clipped to the range. */
function* clipped(doc: Doc, from: number, to: number): Generator<{ run: Run; text: string; ends: boolean }> {
  for (let i = firstRunAt(doc.runs, from); i < doc.runs.length; i++) {
    const run = doc.runs[i];
    if (!run || run.start >= to) return;
    const end = run.start + run.text.length;
    const text = run.text.slice(Math.max(0, from - run.start), to - run.start);
    if (text !== '') yield { run, text, ends: end <= to };
  }
}

/** Index of the run containing `offset` (binary search; runs are sorted). */
function firstRunAt(runs: readonly Run[], offset: number): number {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((runs[mid]?.start ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface RenderOptions {
  /** Drop all markup: the last resort when tags alone would exceed a limit. */
  readonly bare?: boolean;
}

/** Telegram HTML for doc.text[from, to). */
export function renderHtml(doc: Doc, from = 0, to = doc.text.length, { bare = false }: RenderOptions = {}): string {
  let html = '';
  let open: Tag[] = [];
  for (const { run, text } of clipped(doc, from, to)) {
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

/** Plain text for doc.text[from, to): the visible text plus link targets. */
export function renderPlain(doc: Doc, from = 0, to = doc.text.length, { bare = false }: RenderOptions = {}): string {
  let plain = '';
  for (const { run, text, ends } of clipped(doc, from, to)) {
    plain += text;
    if (ends && !bare) plain += run.plainSuffix;
  }
  return plain;
}
