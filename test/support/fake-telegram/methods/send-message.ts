import type { Message } from 'grammy/types';
import { badRequest } from '../api-error.ts';
import { formatText, readParseMode } from '../formatting/format-text.ts';
import { toBotApiMessage } from '../message-view.ts';
import { readReplyMarkup } from '../reply-markup.ts';
import type { MethodContext } from './context.ts';
import { readLinkPreview, replyTarget, resolveChat, resolveReply, resolveThread } from './targets.ts';

export const MAX_TEXT_LENGTH = 4096;

export function sendMessage(ctx: MethodContext): Message {
  const { params } = ctx;
  // Telegram reads and checks the text before it looks at the chat.
  const source = params.string('text');
  if (source === undefined || source === '') throw badRequest('message text is empty');
  const parseMode = readParseMode(params.string('parse_mode'));
  const formatted = formatText(source, parseMode, params.values.entities);
  if (formatted === undefined) throw badRequest('text must be non-empty');
  // Measured in UTF-16 code units of the visible text, after entity parsing.
  if (formatted.text.length > MAX_TEXT_LENGTH) throw badRequest('message is too long');
  const markup = readReplyMarkup(params);
  const linkPreviewOptions = readLinkPreview(ctx);

  const chat = resolveChat(ctx);
  const reply = resolveReply(ctx, chat);
  const threadId = resolveThread(ctx, chat, reply);
  const record = ctx.world.addMessage({
    chatId: chat.chat.id,
    threadId,
    from: ctx.world.botUser,
    fromBot: true,
    content: { text: formatted.text, entities: formatted.entities, source, ...(parseMode && { parseMode }) },
    replyMarkup: markup?.kind === 'inline' ? markup.markup : undefined,
    replyToMessageId: replyTarget(reply, threadId),
    document: undefined,
    linkPreviewOptions,
    protectContent: params.boolean('protect_content') ?? false,
  });
  return toBotApiMessage(ctx.world, record);
}
