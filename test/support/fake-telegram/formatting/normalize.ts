import type { MessageEntity } from 'grammy/types';
import { sortEntities, type FormattedText } from './entities.ts';

/**
 * What Telegram does to every text after parsing (a simplification of tdlib's
 * fix_formatted_text): drops '\r', turns other control characters (tab included) into spaces,
 * strips leading whitespace from entities, trims the text's trailing whitespace and its leading
 * whitespace before the first entity. Returns undefined when nothing visible is left.
 */

const isBlank = (ch: string | undefined) => ch === ' ' || ch === '\n';

// Entities whose meaning lies in hidden data keep their whitespace.
const keepsWhitespace = (e: MessageEntity) => e.type === 'text_link' || e.type === 'text_mention' || e.type === 'custom_emoji';

function cleanCharacters(input: FormattedText): { text: string; entities: MessageEntity[] } {
  let text = '';
  // newIndex[i] is where source index i lands in the cleaned text.
  const newIndex: number[] = [];
  for (let i = 0; i < input.text.length; i++) {
    newIndex.push(text.length);
    const ch = input.text[i] ?? '';
    const code = ch.charCodeAt(0);
    if (ch === '\r') continue;
    text += code < 32 && ch !== '\n' ? ' ' : ch;
  }
  newIndex.push(text.length);
  const entities = input.entities.map((e) => {
    const offset = newIndex[e.offset] ?? text.length;
    const end = newIndex[e.offset + e.length] ?? text.length;
    return { ...e, offset, length: end - offset };
  });
  return { text, entities };
}

export function normalizeText(input: FormattedText): FormattedText | undefined {
  const cleaned = cleanCharacters(input);
  let text = cleaned.text;
  let entities = cleaned.entities
    .map((e) => {
      if (keepsWhitespace(e)) return e;
      let { offset, length } = e;
      while (length > 0 && isBlank(text[offset])) {
        offset++;
        length--;
      }
      return { ...e, offset, length };
    })
    .filter((e) => e.length > 0);

  let last = text.length - 1;
  while (last >= 0 && isBlank(text[last])) last--;
  if (last < 0) return undefined;
  const end = last + 1;
  text = text.slice(0, end);
  entities = entities.filter((e) => e.offset < end).map((e) => (e.offset + e.length > end ? { ...e, length: end - e.offset } : e));

  const firstEntity = Math.min(text.length, ...entities.map((e) => e.offset));
  let first = 0;
  while (first < firstEntity && isBlank(text[first])) first++;
  if (first > 0) {
    text = text.slice(first);
    entities = entities.map((e) => ({ ...e, offset: e.offset - first }));
  }
  return { text, entities: sortEntities(entities) };
}
