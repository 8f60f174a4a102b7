import { badRequest } from '../api-error.ts';
import type { MethodContext } from './context.ts';

const MAX_ANSWER_TEXT_LENGTH = 200;

/** Each callback query can be answered once; unknown or answered ids fail as in Telegram. */
export function answerCallbackQuery(ctx: MethodContext): true {
  const { params, state } = ctx;
  const id = params.string('callback_query_id') ?? '';
  const text = params.string('text');
  if (text !== undefined && text.length > MAX_ANSWER_TEXT_LENGTH) throw badRequest('MESSAGE_TOO_LONG');
  const query = state.pendingQueries.get(id);
  if (!query) throw badRequest('query is too old and response timeout expired or query ID is invalid');
  state.pendingQueries.delete(id);
  state.callbackAnswers.push({
    callbackQueryId: id,
    data: query.data,
    chatId: query.chatId,
    messageId: query.messageId,
    text,
    showAlert: params.boolean('show_alert') ?? false,
    url: params.string('url'),
    cacheTime: params.integer('cache_time'),
    at: Date.now(),
  });
  return true;
}
