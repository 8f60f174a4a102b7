import type { Message } from 'grammy/types';
import { toBotApiMessage } from '../message-view.ts';
import { type readReplyMarkup } from '../reply-markup.ts';
import type { ChatRecord, NewMessage } from '../world.ts';
import type { MethodContext } from './context.ts';
import { replyTarget, resolveReply, resolveThread } from './targets.ts';

/**
 * The part every send method shares once its own parameters are read: resolve the reply and
 * the topic, store the bot's message, and answer with it as the Bot API would.
 */
export function addBotMessage(
  ctx: MethodContext,
  chat: ChatRecord,
  markup: ReturnType<typeof readReplyMarkup>,
  message: Pick<NewMessage, 'content' | 'document' | 'media' | 'linkPreviewOptions'>,
): Message {
  const reply = resolveReply(ctx, chat);
  const threadId = resolveThread(ctx, chat, reply);
  const record = ctx.world.addMessage({
    chatId: chat.chat.id,
    threadId,
    from: ctx.world.botUser,
    fromBot: true,
    ...message,
    replyMarkup: markup?.kind === 'inline' ? markup.markup : undefined,
    replyToMessageId: replyTarget(reply, threadId),
    protectContent: ctx.params.boolean('protect_content') ?? false,
  });
  return toBotApiMessage(ctx.world, record);
}
