import { byteOffset, EntityParseError, sortEntities, toMessageEntity, type DraftEntity, type FormattedText } from './entities.ts';
import { checkedLink } from './links.ts';

/**
 * parse_mode "HTML", ported from tdlib's parse_html (td/telegram/MessageEntity.cpp) so that
 * the accepted input, the resulting text and entities, and the error wording match Telegram.
 */

const SUPPORTED_TAGS = new Set([
  'a',
  'b',
  'strong',
  'i',
  'em',
  's',
  'strike',
  'del',
  'u',
  'ins',
  'tg-spoiler',
  'tg-emoji',
  'span',
  'pre',
  'code',
  'blockquote',
]);

interface OpenTag {
  readonly tag: string;
  readonly argument: string;
  readonly offset: number;
}

// tdlib's is_space; the end of the string counts as space there because it reads a NUL.
function isSpace(ch: string | undefined): boolean {
  return ch === undefined || ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n' || ch === '\v' || ch === '\f';
}

/**
 * Decodes the character reference at `pos` (which holds '&'). Only &lt; &gt; &amp; &quot; and
 * numeric references are known; anything else is left as literal text, as Telegram does.
 */
function decodeReference(source: string, pos: number): { text: string; end: number } | undefined {
  let end = pos + 1;
  let code = 0;
  if (source[end] === '#') {
    end++;
    if (source[end] === 'x') {
      end++;
      while (end < source.length && /[0-9a-fA-F]/.test(source[end] ?? '')) {
        code = code * 16 + parseInt(source[end] ?? '0', 16);
        end++;
      }
    } else {
      while (end < source.length && /[0-9]/.test(source[end] ?? '')) {
        code = code * 10 + Number(source[end]);
        end++;
      }
    }
    if (code === 0 || code >= 0x10ffff || end - pos >= 10) return undefined;
  } else {
    while (end < source.length && /[a-zA-Z]/.test(source[end] ?? '')) end++;
    const names: Record<string, number> = { lt: 0x3c, gt: 0x3e, amp: 0x26, quot: 0x22 };
    const named = names[source.slice(pos + 1, end)];
    if (named === undefined) return undefined;
    code = named;
  }
  if (source[end] === ';') end++;
  return { text: String.fromCodePoint(code), end };
}

function fail(message: string): never {
  throw new EntityParseError(message);
}

export function parseHtml(source: string): FormattedText {
  const at = (index: number) => byteOffset(source, index);
  const n = source.length;
  let text = '';
  const entities: DraftEntity[] = [];
  // Code entities keep their language here until a surrounding <pre> claims it.
  const codeLanguage = new Map<DraftEntity, string>();
  const open: OpenTag[] = [];

  let i = 0;
  while (i < n) {
    const c = source[i];
    if (c === '&') {
      const decoded = decodeReference(source, i);
      if (decoded) {
        text += decoded.text;
        i = decoded.end;
        continue;
      }
    }
    if (c !== '<') {
      text += c;
      i++;
      continue;
    }

    const begin = i++;
    if (source[i] !== '/') {
      while (!isSpace(source[i]) && source[i] !== '>') i++;
      if (i >= n) fail(`Unclosed start tag at byte offset ${at(begin)}`);
      const tag = source.slice(begin + 1, i).toLowerCase();
      if (!SUPPORTED_TAGS.has(tag)) fail(`Unsupported start tag "${tag}" at byte offset ${at(begin)}`);

      let argument = '';
      while (source[i] !== '>') {
        while (i < n && isSpace(source[i])) i++;
        if (i >= n) fail(`Unclosed start tag at byte offset ${at(begin)}`);
        if (source[i] === '>') break;
        const nameBegin = i;
        while (!isSpace(source[i]) && source[i] !== '=' && source[i] !== '>') i++;
        const name = source.slice(nameBegin, i).toLowerCase();
        if (name === '') fail(`Empty attribute name in the tag "${tag}" at byte offset ${at(begin)}`);
        while (i < n && isSpace(source[i])) i++;
        if (source[i] !== '=') {
          // Newer Telegram accepts the value-less `expandable` flag on blockquote.
          if (tag === 'blockquote' && name === 'expandable') {
            argument = 'expandable';
            continue;
          }
          fail(`Expected equal sign in declaration of an attribute of the tag "${tag}" at byte offset ${at(begin)}`);
        }
        i++;
        while (i < n && isSpace(source[i])) i++;
        if (i >= n) fail(`Unclosed start tag "${tag}" at byte offset ${at(begin)}`);

        let value = '';
        const quote = source[i];
        if (quote !== '"' && quote !== "'") {
          const tokenBegin = i;
          while (i < n && /[a-zA-Z0-9.-]/.test(source[i] ?? '')) i++;
          value = source.slice(tokenBegin, i).toLowerCase();
          if (!isSpace(source[i]) && source[i] !== '>') {
            fail(`Unexpected end of name token at byte offset ${at(tokenBegin)}`);
          }
        } else {
          i++;
          while (i < n && source[i] !== quote) {
            const decoded = source[i] === '&' ? decodeReference(source, i) : undefined;
            if (decoded) {
              value += decoded.text;
              i = decoded.end;
            } else {
              value += source[i];
              i++;
            }
          }
          if (source[i] === quote) i++;
        }
        if (i >= n) fail(`Unclosed start tag at byte offset ${at(begin)}`);

        if (tag === 'a' && name === 'href') argument = value;
        else if (tag === 'code' && name === 'class' && value.startsWith('language-')) argument = value.slice(9);
        else if (tag === 'span' && name === 'class' && value.startsWith('tg-')) argument = value.slice(3);
        else if (tag === 'tg-emoji' && name === 'emoji-id') argument = value;
      }
      i++; // '>'
      if (tag === 'span' && argument !== 'spoiler') {
        fail(`Tag "span" must have class "tg-spoiler" at byte offset ${at(begin)}`);
      }
      open.push({ tag, argument, offset: text.length });
      continue;
    }

    // An end tag.
    const top = open.at(-1);
    if (top === undefined) fail(`Unexpected end tag at byte offset ${at(begin)}`);
    i++; // '/'
    while (!isSpace(source[i]) && source[i] !== '>') i++;
    const endTag = source.slice(begin + 2, i).toLowerCase();
    while (i < n && isSpace(source[i])) i++;
    if (source[i] !== '>') fail(`Unclosed end tag at byte offset ${at(begin)}`);
    i++;
    if (endTag !== '' && endTag !== top.tag) {
      fail(`Unmatched end tag at byte offset ${at(begin)}, expected "</${top.tag}>", found "</${endTag}>"`);
    }
    open.pop();
    const offset = top.offset;
    const length = text.length - offset;
    if (length <= 0) continue;
    const last = entities.at(-1);
    switch (top.tag) {
      case 'i':
      case 'em':
        entities.push({ type: 'italic', offset, length });
        break;
      case 'b':
      case 'strong':
        entities.push({ type: 'bold', offset, length });
        break;
      case 's':
      case 'strike':
      case 'del':
        entities.push({ type: 'strikethrough', offset, length });
        break;
      case 'u':
      case 'ins':
        entities.push({ type: 'underline', offset, length });
        break;
      case 'tg-spoiler':
      case 'span':
        entities.push({ type: 'spoiler', offset, length });
        break;
      case 'tg-emoji':
        if (!/^[1-9][0-9]{0,18}$/.test(top.argument) || BigInt(top.argument) > 2n ** 63n - 1n) {
          fail('Invalid custom emoji identifier specified');
        }
        entities.push({ type: 'custom_emoji', offset, length, custom_emoji_id: top.argument });
        break;
      case 'a': {
        const url = checkedLink(top.argument === '' ? text.slice(offset) : top.argument);
        if (url !== undefined) entities.push({ type: 'text_link', offset, length, url });
        break;
      }
      case 'pre': {
        // <pre><code class="language-x">…</code></pre> is one pre entity with a language.
        const language = last ? codeLanguage.get(last) : undefined;
        if (last && last.type === 'code' && last.offset === offset && last.length === length && language) {
          last.type = 'pre';
          last.language = language;
        } else {
          entities.push({ type: 'pre', offset, length });
        }
        break;
      }
      case 'code':
        if (last && last.type === 'pre' && last.offset === offset && last.length === length && top.argument) {
          last.language = top.argument;
        } else {
          const code: DraftEntity = { type: 'code', offset, length };
          if (top.argument) codeLanguage.set(code, top.argument);
          entities.push(code);
        }
        break;
      case 'blockquote':
        entities.push({
          type: top.argument === 'expandable' ? 'expandable_blockquote' : 'blockquote',
          offset,
          length,
        });
        break;
    }
  }
  const unclosed = open.at(-1);
  if (unclosed) fail(`Can't find end tag corresponding to start tag "${unclosed.tag}"`);

  return { text, entities: sortEntities(entities).map(toMessageEntity) };
}
