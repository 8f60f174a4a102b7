import type { RichText, RunStyle } from '../../../kernel/rich/model.ts';
import { clipped, type RangeOptions } from '../../../kernel/rich/range.ts';

// Rich text as the chat apps' Markdown (CommonMark with their own line openings, read alike by
// the apps that take Markdown). Each run is written on its own (its markers opened and
// closed around it, whitespace kept outside them, since CommonMark does not take `** a**`), so
// any range, one cut mid-run included, is balanced; a code block cut in two is closed in the
// first message and opened again in the next. Italics are `*…*`, which the apps read inside a
// word too; where one run's markers would touch the next's (`**a***b*`), an invisible space
// keeps them apart.

/** Characters a run's markers begin or end with. */
const MARKER = /[*_~`]/;

/** Characters the apps read as Markdown anywhere in a line. */
const INLINE = /[\\*_~`|[\]<]/g;
/** Line openings the apps read as a heading, a quote or a list (an escape goes before a sign, never before a digit, which would show it). */
const LINE_START = /^(#{1,3} |> |>>> |-# |[-*] )/gm;
const NUMBERED = /^(\d+)\. /gm;
const URL = /https?:\/\/[^\s<>]+/g;

/** Text as it reads, Markdown escaped: links people would click stay as they are (an escape in one would break it). */
export function escapeMarkdown(text: string): string {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(URL)) {
    out += escapeWords(text.slice(at, match.index));
    out += match[0];
    at = match.index + match[0].length;
  }
  return out + escapeWords(text.slice(at));
}

function escapeWords(text: string): string {
  return text.replace(INLINE, '\\$&').replace(LINE_START, '\\$1').replace(NUMBERED, '$1\\. ');
}

/** Inline code that shows backticks too: a longer fence and spaces inside it. */
function inlineCode(text: string): string {
  if (!text.includes('`')) return `\`${text}\``;
  return `\`\` ${text.replace(/``+/g, (ticks) => ticks.split('').join('\u200b'))} \`\``;
}

/** A code block's text, its fence never closed from inside. */
function blockText(text: string): string {
  return text.replace(/```/g, '`\u200b``');
}

function inline(text: string, style: RunStyle): string {
  const lead = /^\s*/.exec(text)![0];
  const trail = text.length > lead.length ? /\s*$/.exec(text)![0] : '';
  const core = text.slice(lead.length, text.length - trail.length);
  if (core === '') return text;
  let body = style.code ? inlineCode(core) : escapeMarkdown(core);
  if (style.strike) body = `~~${body}~~`;
  if (style.italic) body = `*${body}*`;
  if (style.bold) body = `**${body}**`;
  if (style.link)
    body =
      core === style.link.href && !style.code && !style.bold && !style.italic && !style.strike
        ? `<${style.link.href}>`
        : `[${body}](<${style.link.href.replace(/>/g, '%3E')}>)`;
  return lead + body + trail;
}

/** Chat Markdown for rich.text[from, to); `bare` leaves every style out (its escapes stay). */
export function renderMarkdown(rich: RichText, from = 0, to = rich.text.length, { bare = false }: RangeOptions = {}): string {
  let out = '';
  let fence: string | null = null;
  const closeFence = () => {
    if (fence === null) return;
    out += out.endsWith('\n') ? '```' : '\n```';
    fence = null;
  };
  for (const { run, text } of clipped(rich, from, to)) {
    const style = run.style;
    if (!bare && style.pre !== null) {
      if (fence !== style.pre) {
        closeFence();
        if (out !== '' && !out.endsWith('\n')) out += '\n';
        out += `${style.quote ? '> ' : ''}\`\`\`${style.pre}\n`;
        fence = style.pre;
      }
      out += blockText(text);
      continue;
    }
    closeFence();
    let written = bare ? escapeMarkdown(text) : inline(text, style);
    if (MARKER.test(out.at(-1) ?? '') && MARKER.test(written[0] ?? '')) written = `\u200b${written}`;
    if (!bare && style.quote) {
      const atLineStart = out === '' || out.endsWith('\n');
      out += (atLineStart ? '> ' : '') + written.replace(/\n(?=.)/g, '\n> ');
    } else out += written;
  }
  closeFence();
  return out;
}
