import type { InlineKeyboardButton, InlineKeyboardMarkup } from 'grammy/types';
import { badRequest } from './api-error.ts';
import { checkedLink } from './formatting/links.ts';
import { isRecord, type Params } from './params.ts';

/**
 * reply_markup validation with Telegram's wording. Only inline keyboards become part of a
 * message (and of its edits); reply keyboards, keyboard removal and force-reply are validated
 * and accepted but, as in the real API, not echoed back on the message.
 */
export type ReplyMarkup = { readonly kind: 'inline'; readonly markup: InlineKeyboardMarkup } | { readonly kind: 'other' };

const MAX_CALLBACK_DATA_BYTES = 64;

function buttonError(detail: string): never {
  throw badRequest(`can't parse inline keyboard button: ${detail}`);
}

function checkButton(raw: unknown): InlineKeyboardButton {
  if (!isRecord(raw)) buttonError('InlineKeyboardButton must be an Object');
  if (!('text' in raw)) buttonError('Can\'t find field "text"');
  if (typeof raw.text !== 'string') buttonError('Field "text" must be of type String');

  const { callback_data: data, url, web_app: webApp, copy_text: copyText } = raw;
  if (typeof data === 'string' && data !== '') {
    if (Buffer.byteLength(data, 'utf8') > MAX_CALLBACK_DATA_BYTES) throw badRequest('BUTTON_DATA_INVALID');
  } else if (typeof url === 'string') {
    if (/^ftp:/i.test(url)) throw badRequest(`inline keyboard button URL '${url}' is invalid: Unsupported URL protocol`);
    if (!/^[a-z]+:\/\//i.test(url) || checkedLink(url) === undefined) {
      throw badRequest(`inline keyboard button URL '${url}' is invalid: Wrong HTTP URL`);
    }
  } else if (isRecord(webApp)) {
    if (typeof webApp.url !== 'string' || !/^https:\/\//i.test(webApp.url)) {
      const shown = String(webApp.url);
      throw badRequest(`inline keyboard button Web App URL '${shown}' is invalid: Only HTTPS links are allowed`);
    }
  } else if (isRecord(copyText)) {
    if (typeof copyText.text !== 'string' || copyText.text === '' || copyText.text.length > 256) {
      throw badRequest('BUTTON_COPY_TEXT_INVALID');
    }
  } else if ('pay' in raw || 'callback_game' in raw) {
    throw badRequest('BUTTON_TYPE_INVALID'); // only valid on invoices and games
  } else if (
    !('switch_inline_query' in raw) &&
    !('switch_inline_query_current_chat' in raw) &&
    !('switch_inline_query_chosen_chat' in raw) &&
    !('login_url' in raw)
  ) {
    buttonError('Text buttons are unallowed in the inline keyboard');
  }
  return structuredClone(raw) as unknown as InlineKeyboardButton;
}

function checkInlineKeyboard(rows: unknown): InlineKeyboardMarkup {
  if (!Array.isArray(rows)) throw badRequest('field "inline_keyboard" must be of type Array');
  return {
    inline_keyboard: rows.map((row) => {
      if (!Array.isArray(row)) throw badRequest('field "inline_keyboard" must be of type Array');
      return row.map(checkButton);
    }),
  };
}

function checkBooleans(markup: Record<string, unknown>, names: readonly string[]): void {
  for (const name of names) {
    if (name in markup && typeof markup[name] !== 'boolean') {
      throw badRequest(`field "${name}" must be of type Boolean`);
    }
  }
}

export function readReplyMarkup(params: Params): ReplyMarkup | undefined {
  const raw = params.json('reply_markup', "can't parse reply keyboard markup JSON object");
  if (raw === undefined) return undefined;
  if (!isRecord(raw)) throw badRequest("can't parse reply keyboard markup JSON object");
  if ('inline_keyboard' in raw) return { kind: 'inline', markup: checkInlineKeyboard(raw.inline_keyboard) };
  if ('keyboard' in raw) {
    if (!Array.isArray(raw.keyboard)) throw badRequest('field "keyboard" must be of type Array');
    checkBooleans(raw, ['is_persistent', 'resize_keyboard', 'one_time_keyboard', 'selective']);
    return { kind: 'other' };
  }
  if ('remove_keyboard' in raw) {
    checkBooleans(raw, ['remove_keyboard', 'selective']);
    return { kind: 'other' };
  }
  if ('force_reply' in raw) {
    checkBooleans(raw, ['force_reply', 'selective']);
    return { kind: 'other' };
  }
  throw badRequest("can't parse reply keyboard markup JSON object");
}

/** Edits accept inline keyboards only. */
export function readInlineMarkup(params: Params): InlineKeyboardMarkup | undefined {
  const markup = readReplyMarkup(params);
  if (markup === undefined) return undefined;
  if (markup.kind !== 'inline') throw badRequest("can't parse inline keyboard markup JSON object");
  return markup.markup;
}
