import type { MessageEntity } from 'grammy/types';

/** Visible text plus the entities that format it, offsets in UTF-16 code units as in the Bot API. */
export interface FormattedText {
  readonly text: string;
  readonly entities: readonly MessageEntity[];
}

export type EntityType = MessageEntity['type'];

/**
 * An entity while it is being built: one flat shape for every type, turned into the Bot API's
 * union by `toMessageEntity` once parsing is done.
 */
export interface DraftEntity {
  type: EntityType;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  custom_emoji_id?: string;
}

/**
 * A parse failure worded as tdlib words it; the caller adds Telegram's
 * "Bad Request: can't parse entities: " prefix.
 */
export class EntityParseError extends Error {
  override name = 'EntityParseError';
}

/** tdlib reports positions in the source as UTF-8 byte offsets. */
export function byteOffset(source: string, index: number): number {
  return Buffer.byteLength(source.slice(0, index), 'utf8');
}

// tdlib's MessageEntity::get_type_priority: ties at one offset and length sort by it.
const PRIORITY: Partial<Record<EntityType, number>> = {
  blockquote: 0,
  expandable_blockquote: 0,
  pre: 11,
  code: 20,
  text_link: 49,
  text_mention: 49,
  bold: 90,
  italic: 91,
  underline: 92,
  strikethrough: 93,
  spoiler: 94,
  custom_emoji: 99,
};

/** Telegram's order: by offset, then longer first, then by type priority. */
export function sortEntities<T extends { type: EntityType; offset: number; length: number }>(entities: readonly T[]): T[] {
  const priority = (e: T) => PRIORITY[e.type] ?? 50;
  return [...entities].sort((a, b) => a.offset - b.offset || b.length - a.length || priority(a) - priority(b));
}

export function toMessageEntity(draft: DraftEntity): MessageEntity {
  const { type, offset, length } = draft;
  switch (type) {
    case 'pre':
      return draft.language ? { type, offset, length, language: draft.language } : { type, offset, length };
    case 'text_link':
      return { type, offset, length, url: draft.url ?? '' };
    case 'custom_emoji':
      return { type, offset, length, custom_emoji_id: draft.custom_emoji_id ?? '' };
    case 'text_mention':
    case 'date_time':
      // The parsers never produce these: they need data (a user, a time) the fake does not model.
      throw new Error(`${type} entities are not supported by the fake`);
    default:
      return { type, offset, length };
  }
}

/** Splittable entities may overlap anything; the others ("continuous") may not overlap each other. */
export function isSplittable(type: EntityType): boolean {
  return (
    type === 'bold' ||
    type === 'italic' ||
    type === 'underline' ||
    type === 'strikethrough' ||
    type === 'spoiler' ||
    type === 'blockquote' ||
    type === 'expandable_blockquote'
  );
}
