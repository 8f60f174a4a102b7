import type { LinkPreviewOptions } from 'grammy/types';
import { badRequest } from '../api-error.ts';
import { checkedLink } from '../formatting/links.ts';
import { isRecord } from '../params.ts';
import type { ChatRecord, MessageRecord } from '../world.ts';
import type { MethodContext } from './context.ts';

/** Resolution of the parameters that say where a message goes: chat, reply target, topic. */

export function resolveChat(ctx: MethodContext): ChatRecord {
  const raw = ctx.params.values.chat_id;
  if (raw === undefined || raw === null || raw === '') throw badRequest('chat_id is empty');
  if (typeof raw === 'string' && raw.startsWith('@')) {
    const chat = ctx.world.chatByUsername(raw);
    if (!chat) throw badRequest('chat not found');
    return chat;
  }
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : NaN;
  const chat = Number.isInteger(id) ? ctx.world.chat(id) : undefined;
  if (!chat) throw badRequest('chat not found');
  return chat;
}

interface ReplyRequest {
  readonly messageId: number;
  readonly allowWithoutReply: boolean;
}

function readReplyRequest(ctx: MethodContext, chat: ChatRecord): ReplyRequest | undefined {
  const { params } = ctx;
  const parameters = params.json('reply_parameters', "can't parse reply parameters JSON object");
  if (parameters !== undefined) {
    if (!isRecord(parameters)) throw badRequest("can't parse reply parameters JSON object");
    const { message_id: messageId, chat_id: chatId, allow_sending_without_reply: allow } = parameters;
    if (messageId === undefined) throw badRequest('can\'t find field "message_id"');
    if (typeof messageId !== 'number' || !Number.isInteger(messageId)) {
      throw badRequest('field "message_id" must be of type Number');
    }
    if (chatId !== undefined && chatId !== chat.chat.id && chatId !== String(chat.chat.id)) {
      throw badRequest('replies to messages of other chats are not supported by the fake Telegram server');
    }
    return { messageId, allowWithoutReply: allow === true };
  }
  const messageId = params.integer('reply_to_message_id');
  if (messageId === undefined) return undefined;
  return { messageId, allowWithoutReply: params.boolean('allow_sending_without_reply') ?? false };
}

/** The message replied to, if any; a missing one fails unless sending without reply is allowed. */
export function resolveReply(ctx: MethodContext, chat: ChatRecord): MessageRecord | undefined {
  const request = readReplyRequest(ctx, chat);
  if (request === undefined) return undefined;
  const target = ctx.world.message(chat.chat.id, request.messageId);
  if (!target && !request.allowWithoutReply) throw badRequest('message to be replied not found');
  return target;
}

/** The forum topic: explicit message_thread_id (which must exist), else the replied message's topic. */
export function resolveThread(ctx: MethodContext, chat: ChatRecord, reply: MessageRecord | undefined): number | undefined {
  const threadId = ctx.params.integer('message_thread_id');
  if (threadId === undefined || threadId === 0) return reply?.threadId;
  if (!chat.topics.has(threadId)) throw badRequest('message thread not found');
  return threadId;
}

/** Where a message without an explicit reply points inside a topic: the topic's first message. */
export function replyTarget(reply: MessageRecord | undefined, threadId: number | undefined): number | undefined {
  return reply?.messageId ?? threadId;
}

export function readLinkPreview(ctx: MethodContext): LinkPreviewOptions | undefined {
  const raw = ctx.params.json('link_preview_options', "can't parse link preview options JSON object");
  if (raw === undefined) {
    return ctx.params.boolean('disable_web_page_preview') ? { is_disabled: true } : undefined;
  }
  if (!isRecord(raw)) throw badRequest("can't parse link preview options JSON object");
  for (const name of ['is_disabled', 'prefer_small_media', 'prefer_large_media', 'show_above_text']) {
    if (name in raw && typeof raw[name] !== 'boolean') throw badRequest(`field "${name}" must be of type Boolean`);
  }
  if ('url' in raw && (typeof raw.url !== 'string' || checkedLink(raw.url) === undefined)) {
    throw badRequest('WEBPAGE_URL_INVALID');
  }
  return structuredClone(raw);
}
