import { badRequest } from '../api-error.ts';
import { formatText, readParseMode } from '../formatting/format-text.ts';
import type { MethodContext } from './context.ts';

export const MAX_TEXT_LENGTH = 4096;

/**
 * The `text` of sendMessage and editMessageText, checked as Telegram checks it: present,
 * parsed with its parse_mode and entities, not blank after parsing, and at most 4096
 * UTF-16 units of visible text. The two methods word the length error differently.
 */
export function readMessageText(ctx: MethodContext, tooLong: string) {
  const { params } = ctx;
  const source = params.string('text');
  if (source === undefined || source === '') throw badRequest('message text is empty');
  const parseMode = readParseMode(params.string('parse_mode'));
  const formatted = formatText(source, parseMode, params.values.entities);
  if (formatted === undefined) throw badRequest('text must be non-empty');
  if (formatted.text.length > MAX_TEXT_LENGTH) throw badRequest(tooLong);
  return { source, parseMode, formatted };
}
