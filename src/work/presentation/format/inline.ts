import type { MarkedToken, Token } from 'marked';
import { decodeEntities } from './entities.ts';
import { safeHref } from './links.ts';
import { PLAIN, type InlineStyle } from '../../../kernel/rich/model.ts';
import type { Span } from './block.ts';

/** Converts marked's inline tokens to styled spans. */
export function inlineSpans(tokens: readonly Token[], style: InlineStyle = PLAIN): Span[] {
  const out: Span[] = [];
  collect(tokens, style, out);
  return out;
}

/** The text of inline tokens with all styling dropped (for table cells). */
export function inlineText(tokens: readonly Token[]): string {
  return inlineSpans(tokens)
    .map((s) => s.text)
    .join('');
}

function collect(tokens: readonly Token[], style: InlineStyle, out: Span[]): void {
  tokens.forEach((token, i) => {
    if (isIntrawordAsterisk(token, tokens[i - 1], tokens[i + 1])) push(out, token.raw, style);
    else collectOne(token, style, out);
  });
}

function collectOne(generic: Token, style: InlineStyle, out: Span[]): void {
  const token = generic as MarkedToken; // extensions are not enabled, so no custom types
  switch (token.type) {
    case 'text':
      if (token.tokens) collect(token.tokens, style, out);
      // Text inside raw HTML (`escaped`) is verbatim source: no entity decoding.
      else push(out, token.escaped === true ? token.text : decodeEntities(token.text), style);
      return;
    case 'strong':
      return collect(token.tokens, { ...style, bold: true }, out);
    case 'em':
      return collect(token.tokens, { ...style, italic: true }, out);
    case 'del':
      return collect(token.tokens, { ...style, strike: true }, out);
    case 'codespan':
      return push(out, token.text, codeStyle(style));
    case 'br':
      return push(out, '\n', style);
    case 'link':
      return link(token.href, token.tokens, style, out);
    case 'image':
      return image(token.href, token.text, style, out);
    case 'escape':
    case 'html':
      // Raw HTML is shown as typed, never interpreted.
      return push(out, token.text, style);
    case 'checkbox':
      return; // rendered by the list as ☐/☑
    default:
      push(out, token.raw, style); // block tokens never appear inline
  }
}

function link(rawHref: string, tokens: readonly Token[], style: InlineStyle, out: Span[]): void {
  const href = safeHref(rawHref);
  // Links can't nest; an inner link keeps its text only.
  if (href === null || style.link !== null) {
    collect(tokens, style, out);
    return;
  }
  const linked = { ...style, link: { href } };
  const before = out.length;
  collect(tokens, linked, out);
  if (out.length === before) push(out, href, linked); // `[](url)` still shows something
}

function image(rawHref: string, alt: string, style: InlineStyle, out: Span[]): void {
  const href = style.link === null ? safeHref(rawHref) : null;
  const label = decodeEntities(alt);
  if (href === null) push(out, label, style);
  else push(out, label || href, { ...style, link: { href } });
}

/**
 * Chats forbid other styles inside code, and code inside links, so
 * code drops bold/italic, and inside a link it becomes plain link text.
 */
function codeStyle(style: InlineStyle): InlineStyle {
  return style.link !== null ? style : { ...PLAIN, code: true };
}

/**
 * `2*3*4` or `a*b*c` is CommonMark emphasis, but in an agent's answer it is
 * nearly always arithmetic, so `*` emphasis glued to letters or digits on both
 * sides is kept as the literal text (underscores already behave this way).
 */
function isIntrawordAsterisk(token: Token, prev: Token | undefined, next: Token | undefined): boolean {
  if ((token.type !== 'em' && token.type !== 'strong') || !token.raw.startsWith('*')) return false;
  const endsWord = prev?.type === 'text' && /[\p{L}\p{N}]$/u.test(prev.raw);
  const startsWord = next?.type === 'text' && /^[\p{L}\p{N}]/u.test(next.raw);
  return endsWord && startsWord;
}

function push(out: Span[], text: string, style: InlineStyle): void {
  if (text !== '') out.push({ text, style });
}
