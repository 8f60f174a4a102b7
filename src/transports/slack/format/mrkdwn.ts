import type { RichText, RunStyle } from '../../../kernel/rich/model.ts';
import { clipped, type RangeOptions } from '../../../kernel/rich/range.ts';
import { UNSTYLED } from '../../../kernel/rich/model.ts';

// Rich text as Slack's mrkdwn: *bold*, _italic_, ~strike~, `code`, ```pre```, <url|text>, and
// "> " before each quoted line. Slack has no nesting rules to balance: each run is wrapped on
// its own, markers hugging its words (a marker next to a space is shown as typed), line by line
// (a style does not cross a line break), so any range renders whole.

/** Slack's three control characters, as its docs ask them escaped. */
export function escapeMrkdwn(text: string): string {
  if (!/[&<>]/.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A link's target inside <…|…>: `|` and `>` would end it early. */
function escapeHref(href: string): string {
  return href.replace(/\|/g, '%7C').replace(/>/g, '%3E').replace(/</g, '%3C');
}

function wrapInline(text: string, style: RunStyle): string {
  const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text) ?? [];
  if (core === '') return text;
  let out = escapeMrkdwn(core);
  // A backtick would end the code early, a bar the link's text: such words go as they are.
  if (style.code && !core.includes('`')) out = `\`${out}\``;
  if (style.link) out = core.includes('|') ? `${out} (${escapeMrkdwn(style.link.href)})` : `<${escapeHref(style.link.href)}|${out}>`;
  if (style.strike) out = `~${out}~`;
  if (style.italic) out = `_${out}_`;
  if (style.bold) out = `*${out}*`;
  return `${lead}${out}${trail}`;
}

/** mrkdwn for rich.text[from, to). */
export function renderMrkdwn(rich: RichText, from = 0, to = rich.text.length, { bare = false }: RangeOptions = {}): string {
  let out = '';
  let inPre = false;
  let atLineStart = true;
  for (const { run, text } of clipped(rich, from, to)) {
    const style = bare ? UNSTYLED : run.style;
    if (style.pre !== null && !inPre) {
      out += atLineStart ? '```\n' : '\n```\n';
      inPre = true;
    } else if (style.pre === null && inPre) {
      out += out.endsWith('\n') ? '```' : '\n```';
      inPre = false;
    }
    if (inPre) {
      out += escapeMrkdwn(text);
      atLineStart = text.endsWith('\n');
      continue;
    }
    const lines = text.split('\n');
    out += lines
      .map((line, i) => {
        const startsLine = i > 0 || atLineStart;
        const quoted = style.quote && startsLine ? '> ' : '';
        return quoted + wrapInline(line, style);
      })
      .join('\n');
    atLineStart = text.endsWith('\n');
  }
  if (inPre) out += out.endsWith('\n') ? '```' : '\n```';
  return out;
}
