import type { MessageEntity } from 'grammy/types';
import { isSplittable, sortEntities, type FormattedText } from './entities.ts';

/**
 * The entities Telegram finds by itself in every message: bot commands (which grammY's
 * `bot.command()` depends on), mentions, hashtags and URLs with a scheme. A subset of tdlib's
 * find_entities: bare domains, e-mails, cashtags and phone numbers are not detected.
 */

const WORD = String.raw`\p{L}\p{N}_`;
const PATTERNS: ReadonlyArray<{ type: 'bot_command' | 'mention' | 'hashtag' | 'url'; regex: RegExp }> = [
  {
    type: 'bot_command',
    regex: new RegExp(String.raw`(?<![${WORD}/<>])/[a-zA-Z0-9_]{1,64}(?:@[a-zA-Z0-9_]{3,32})?(?![${WORD}/<>])`, 'gu'),
  },
  { type: 'mention', regex: new RegExp(String.raw`(?<![${WORD}])@[a-zA-Z0-9_]{4,32}(?![${WORD}])`, 'gu') },
  { type: 'hashtag', regex: new RegExp(String.raw`(?<![${WORD}])#[${WORD}]*\p{L}[${WORD}]*(?![${WORD}#])`, 'gu') },
  { type: 'url', regex: /\bhttps?:\/\/[^\s<>"]+/giu },
];

function find(text: string): MessageEntity[] {
  const found: MessageEntity[] = [];
  for (const { type, regex } of PATTERNS) {
    for (const match of text.matchAll(regex)) {
      // A sentence's closing punctuation is not part of the URL.
      const value = type === 'url' ? match[0].replace(/[.,;:!?'")\]]+$/u, '') : match[0];
      found.push({ type, offset: match.index, length: value.length });
    }
  }
  return found;
}

const overlaps = (a: MessageEntity, b: MessageEntity) => a.offset < b.offset + b.length && b.offset < a.offset + a.length;

/** Adds the detected entities that do not collide with code, pre, links or each other. */
export function withAutoEntities(input: FormattedText): FormattedText {
  const entities = [...input.entities];
  for (const candidate of sortEntities(find(input.text))) {
    const collides = entities.some((e) => !isSplittable(e.type) && overlaps(e, candidate));
    if (!collides) entities.push(candidate);
  }
  return { text: input.text, entities: sortEntities(entities) };
}
