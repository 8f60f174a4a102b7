import type { Message } from 'grammy/types';
import { toBotApiMessage } from '../message-view.ts';
import { readReplyMarkup } from '../reply-markup.ts';
import type { MethodContext } from './context.ts';
import { readMessageText } from './message-text.ts';
import { readLinkPreview, replyTarget, resolveChat, resolveReply, resolveThread } from './targets.ts';

export function sendMessage(ctx: MethodContext): Message {
  const { params } = ctx;
  // Telegram reads and checks the text before it looks at the chat.
  const { source, parseMode, formatted } = readMessageText(ctx, 'message is too long');
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
