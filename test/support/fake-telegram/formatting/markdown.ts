import { byteOffset, EntityParseError, sortEntities, toMessageEntity, type DraftEntity, type FormattedText } from './entities.ts';
import { checkedLink } from './links.ts';

/** Legacy parse_mode "Markdown", ported from tdlib's parse_markdown. Entities cannot nest. */
export function parseMarkdown(source: string): FormattedText {
  const entities: DraftEntity[] = [];
  const n = source.length;
  let text = '';

  for (let i = 0; i < n; i++) {
    const c = source[i] ?? '';
    const next = source[i + 1];
    if (c === '\\' && (next === '_' || next === '*' || next === '`' || next === '[')) {
      text += next;
      i++;
      continue;
    }
    if (c !== '_' && c !== '*' && c !== '`' && c !== '[') {
      text += c;
      continue;
    }

    const begin = i;
    const endCharacter = c === '[' ? ']' : c;
    let isPre = false;
    let language = '';
    i++;
    if (c === '`' && source[i] === '`' && source[i + 1] === '`') {
      i += 2;
      isPre = true;
      let languageEnd = i;
      while (languageEnd < n && !/\s/.test(source[languageEnd] ?? '') && source[languageEnd] !== '`') languageEnd++;
      if (i !== languageEnd && languageEnd < n && source[languageEnd] !== '`') {
        language = source.slice(i, languageEnd);
        i = languageEnd;
      }
      if (source[i] === '\n' || source[i] === '\r') {
        const after = source[i + 1];
        i += (after === '\n' || after === '\r') && after !== source[i] ? 2 : 1;
      }
    }

    const offset = text.length;
    while (i < n && (source[i] !== endCharacter || (isPre && !(source[i + 1] === '`' && source[i + 2] === '`')))) {
      text += source[i];
      i++;
    }
    if (i === n) {
      throw new EntityParseError(`Can't find end of the entity starting at byte offset ${byteOffset(source, begin)}`);
    }

    const length = text.length - offset;
    if (length > 0) {
      if (c === '_') entities.push({ type: 'italic', offset, length });
      else if (c === '*') entities.push({ type: 'bold', offset, length });
      else if (c === '`') {
        if (!isPre) entities.push({ type: 'code', offset, length });
        else entities.push({ type: 'pre', offset, length, ...(language && { language }) });
      } else {
        let url = text.slice(offset);
        if (source[i + 1] === '(') {
          i += 2;
          url = '';
          while (i < n && source[i] !== ')') url += source[i++];
        }
        const checked = checkedLink(url);
        if (checked !== undefined) entities.push({ type: 'text_link', offset, length, url: checked });
      }
    }
    if (isPre) i += 2;
  }
  return { text, entities: sortEntities(entities).map(toMessageEntity) };
}
