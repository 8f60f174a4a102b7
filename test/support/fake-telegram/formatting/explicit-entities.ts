import type { MessageEntity } from 'grammy/types';
import { badRequest } from '../api-error.ts';
import { isRecord } from '../params.ts';
import { sortEntities, type EntityType } from './entities.ts';
import { checkedLink } from './links.ts';

/** Validates an `entities` / `caption_entities` parameter the way the Bot API does. */

const KNOWN_TYPES = new Set<string>([
  'mention',
  'hashtag',
  'cashtag',
  'bot_command',
  'url',
  'email',
  'phone_number',
  'bold',
  'italic',
  'underline',
  'strikethrough',
  'spoiler',
  'blockquote',
  'expandable_blockquote',
  'code',
  'pre',
  'text_link',
  'text_mention',
  'custom_emoji',
]);

function entityFrom(raw: unknown): MessageEntity {
  if (!isRecord(raw)) throw badRequest("can't parse MessageEntity: Object expected");
  const { type, offset, length } = raw;
  if (typeof type !== 'string') throw badRequest('can\'t parse MessageEntity: Can\'t find field "type"');
  if (!KNOWN_TYPES.has(type)) throw badRequest("can't parse MessageEntity: Unsupported type specified");
  if (typeof offset !== 'number' || !Number.isInteger(offset)) {
    throw badRequest('can\'t parse MessageEntity: Field "offset" must be of type Number');
  }
  if (typeof length !== 'number' || !Number.isInteger(length)) {
    throw badRequest('can\'t parse MessageEntity: Field "length" must be of type Number');
  }
  if (offset < 0) throw badRequest(`receive an entity with incorrect offset ${offset}`);
  if (length < 0) throw badRequest(`receive an entity with incorrect length ${length}`);
  const kind = type as EntityType;
  switch (kind) {
    case 'text_link': {
      if (typeof raw.url !== 'string') throw badRequest('can\'t parse MessageEntity: Can\'t find field "url"');
      const url = checkedLink(raw.url);
      if (url === undefined) throw badRequest(`entity URL '${raw.url}' is invalid: Wrong HTTP URL`);
      return { type: kind, offset, length, url };
    }
    case 'pre':
      return typeof raw.language === 'string' && raw.language !== '' ? { type: kind, offset, length, language: raw.language } : { type: kind, offset, length };
    case 'custom_emoji':
      if (typeof raw.custom_emoji_id !== 'string') {
        throw badRequest('can\'t parse MessageEntity: Can\'t find field "custom_emoji_id"');
      }
      return { type: kind, offset, length, custom_emoji_id: raw.custom_emoji_id };
    case 'text_mention':
    case 'date_time':
      throw badRequest(`${kind} entities are not supported by the fake Telegram server`);
    default:
      return { type: kind, offset, length };
  }
}

export function readExplicitEntities(raw: unknown, textLength: number): MessageEntity[] {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw badRequest("can't parse entities JSON object");
    }
  }
  if (!Array.isArray(value)) throw badRequest('field "entities" must be of type Array');
  const entities = sortEntities(value.map(entityFrom));
  for (const e of entities) {
    if (e.offset > textLength) {
      throw badRequest(`entity begins after the end of the text at UTF-16 offset ${e.offset}`);
    }
    if (e.offset + e.length > textLength) {
      throw badRequest(`entity beginning at UTF-16 offset ${e.offset} ends after the end of the text ` + `at UTF-16 offset ${e.offset + e.length}`);
    }
  }
  return entities;
}
