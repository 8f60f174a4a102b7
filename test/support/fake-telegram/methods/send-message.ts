import type { Message } from 'grammy/types';
import { readReplyMarkup } from '../reply-markup.ts';
import type { MethodContext } from './context.ts';
import { readMessageText } from './message-text.ts';
import { readLinkPreview, resolveChat } from './targets.ts';
import { addBotMessage } from './bot-message.ts';

export function sendMessage(ctx: MethodContext): Message {
  const { params } = ctx;
  // Telegram reads and checks the text before it looks at the chat.
  const { source, parseMode, formatted } = readMessageText(ctx, 'message is too long');
  const markup = readReplyMarkup(params);
  const linkPreviewOptions = readLinkPreview(ctx);

  const chat = resolveChat(ctx);
  return addBotMessage(ctx, chat, markup, {
    content: { text: formatted.text, entities: formatted.entities, source, ...(parseMode && { parseMode }) },
    document: undefined,
    linkPreviewOptions,
  });
}
