import { byteOffset, EntityParseError, sortEntities, toMessageEntity, type DraftEntity, type EntityType, type FormattedText } from './entities.ts';
import { checkedLink } from './links.ts';

/**
 * parse_mode "MarkdownV2", ported from tdlib's parse_markdown_v2 so that what Telegram refuses
 * (an unescaped '.', '-', '!' …) is refused here with the same words.
 */

type Kind = 'Bold' | 'Italic' | 'Underline' | 'Strikethrough' | 'Spoiler' | 'Code' | 'Pre' | 'PreCode' | 'TextUrl' | 'CustomEmoji' | 'BlockQuote';

interface Open {
  readonly kind: Kind;
  readonly argument: string;
  readonly offset: number;
  readonly byteAt: number;
}

const RESERVED = '_*[]()~`>#+-=|{}.!\n';

const TYPE_OF: Partial<Record<Kind, EntityType>> = {
  Bold: 'bold',
  Italic: 'italic',
  Underline: 'underline',
  Strikethrough: 'strikethrough',
  Spoiler: 'spoiler',
  Code: 'code',
  BlockQuote: 'blockquote',
};

function fail(message: string): never {
  throw new EntityParseError(message);
}

function reserved(ch: string): never {
  return fail(`Character '${ch}' is reserved and must be escaped with the preceding '\\'`);
}

// tdlib escapes any ASCII character 1..126 after a backslash.
function escapable(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  return code > 0 && code <= 126;
}

function isSpace(ch: string | undefined): boolean {
  return ch === undefined || ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n' || ch === '\v' || ch === '\f';
}

/** Reads "(url)" after a closing ']' at `i`; returns the unescaped url and the index of ')'. */
function readUrl(source: string, i: number): { url: string; close: number } {
  let j = i + 2;
  const begin = j;
  let url = '';
  while (j < source.length && source[j] !== ')') {
    if (source[j] === '\\' && escapable(source[j + 1])) {
      url += source[j + 1];
      j += 2;
      continue;
    }
    url += source[j];
    j++;
  }
  if (source[j] !== ')') fail(`Can't find end of a URL at byte offset ${byteOffset(source, begin)}`);
  return { url, close: j };
}

export function parseMarkdownV2(source: string): FormattedText {
  const entities: DraftEntity[] = [];
  const open: Open[] = [];
  let text = '';
  let haveBlockquote = false;

  for (let i = 0; i < source.length; i++) {
    const c = source[i] ?? '';
    if (c === '\\' && escapable(source[i + 1])) {
      i++;
      text += source[i];
      continue;
    }
    const top = open.at(-1);
    const inCode = top?.kind === 'Code' || top?.kind === 'Pre' || top?.kind === 'PreCode';
    if (!(inCode ? '`' : RESERVED).includes(c)) {
      text += c;
      continue;
    }

    let isEnd = false;
    if (top) {
      if (haveBlockquote && c === '\n' && source[i + 1] !== '>') {
        isEnd = true;
      } else {
        switch (top.kind) {
          case 'Bold':
            isEnd = c === '*';
            break;
          case 'Italic':
            isEnd = c === '_' && source[i + 1] !== '_';
            break;
          case 'Code':
            isEnd = c === '`';
            break;
          case 'Pre':
          case 'PreCode':
            isEnd = c === '`' && source[i + 1] === '`' && source[i + 2] === '`';
            break;
          case 'TextUrl':
          case 'CustomEmoji':
            isEnd = c === ']';
            break;
          case 'Underline':
            isEnd = c === '_' && source[i + 1] === '_';
            break;
          case 'Strikethrough':
            isEnd = c === '~';
            break;
          case 'Spoiler':
            isEnd = c === '|' && source[i + 1] === '|';
            break;
          case 'BlockQuote':
            isEnd = false;
            break;
        }
      }
    }

    if (!isEnd) {
      const byteAt = byteOffset(source, i);
      let kind: Kind | undefined;
      let argument = '';
      switch (c) {
        case '_':
          if (source[i + 1] === '_') {
            kind = 'Underline';
            i++;
          } else {
            kind = 'Italic';
          }
          break;
        case '*':
          kind = 'Bold';
          break;
        case '~':
          kind = 'Strikethrough';
          break;
        case '|':
          if (source[i + 1] !== '|') reserved(c);
          i++;
          kind = 'Spoiler';
          break;
        case '[':
          kind = 'TextUrl';
          break;
        case '`':
          if (source[i + 1] === '`' && source[i + 2] === '`') {
            i += 3;
            kind = 'Pre';
            let languageEnd = i;
            while (!isSpace(source[languageEnd]) && source[languageEnd] !== '`') languageEnd++;
            if (i !== languageEnd && languageEnd < source.length && source[languageEnd] !== '`') {
              kind = 'PreCode';
              argument = source.slice(i, languageEnd);
              i = languageEnd;
            }
            // One line break right after the opening fence is not part of the text.
            if (source[i] === '\n' || source[i] === '\r') {
              const next = source[i + 1];
              i += (next === '\n' || next === '\r') && next !== source[i] ? 2 : 1;
            }
            i--;
          } else {
            kind = 'Code';
          }
          break;
        case '!':
          if (source[i + 1] !== '[') reserved(c);
          i++;
          kind = 'CustomEmoji';
          break;
        case '\n':
          text += '\n';
          if (source[i + 1] === '>') {
            i++;
            if (!haveBlockquote) {
              kind = 'BlockQuote';
              haveBlockquote = true;
            }
          }
          break;
        case '>':
          if (i !== 0) reserved(c);
          kind = 'BlockQuote';
          haveBlockquote = true;
          break;
        default:
          reserved(c);
      }
      if (kind !== undefined) open.push({ kind, argument, offset: text.length, byteAt });
      continue;
    }

    // The end of the innermost entity.
    const closing = open.pop();
    if (closing === undefined) continue;
    if (c === '\n' && closing.kind !== 'BlockQuote') {
      fail(`Can't find end of ${closing.kind} entity at byte offset ${closing.byteAt}`);
    }
    let skip = text.length === closing.offset;
    // Kinds that carry data (pre, links, custom emoji) set their type in the switch below.
    const draft: DraftEntity = { type: TYPE_OF[closing.kind] ?? 'bold', offset: closing.offset, length: 0 };
    switch (closing.kind) {
      case 'Underline':
      case 'Spoiler':
        i++;
        break;
      case 'Pre':
      case 'PreCode':
        i += 2;
        draft.type = 'pre';
        if (closing.kind === 'PreCode') draft.language = closing.argument;
        break;
      case 'TextUrl': {
        let url: string;
        if (source[i + 1] !== '(') {
          url = text.slice(closing.offset);
        } else {
          const read = readUrl(source, i);
          url = read.url;
          i = read.close;
        }
        const checked = checkedLink(url);
        if (checked === undefined) skip = true;
        draft.type = 'text_link';
        draft.url = checked ?? '';
        break;
      }
      case 'CustomEmoji': {
        if (source[i + 1] !== '(') fail('Custom emoji entity must contain a tg://emoji URL');
        const read = readUrl(source, i);
        i = read.close;
        const id = /^tg:\/\/emoji\?id=([1-9][0-9]{0,18})$/.exec(read.url)?.[1];
        if (id === undefined) fail('Invalid custom emoji identifier specified');
        draft.type = 'custom_emoji';
        draft.custom_emoji_id = id;
        break;
      }
      case 'BlockQuote':
        haveBlockquote = false;
        text += c;
        break;
      default:
        break;
    }
    draft.length = text.length - draft.offset;
    if (!skip) entities.push(draft);
  }

  // A blockquote may run to the end of the text.
  const last = open.at(-1);
  if (haveBlockquote && last?.kind === 'BlockQuote') {
    open.pop();
    if (text.length > last.offset) {
      entities.push({ type: 'blockquote', offset: last.offset, length: text.length - last.offset });
    }
  }
  const unclosed = open.at(-1);
  if (unclosed) fail(`Can't find end of ${unclosed.kind} entity at byte offset ${unclosed.byteAt}`);

  return { text, entities: sortEntities(entities).map(toMessageEntity) };
}
