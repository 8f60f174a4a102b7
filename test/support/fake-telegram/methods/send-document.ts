import type { Message } from 'grammy/types';
import { readReplyMarkup } from '../reply-markup.ts';
import { addBotMessage } from './bot-message.ts';
import type { MethodContext } from './context.ts';
import { resolveChat } from './targets.ts';
import { mimeTypeOf, readCaption, readInputFile, typeMismatch } from './uploads.ts';

/** A file as a document: an upload is kept byte for byte; a photo's file_id is refused, as Telegram refuses it. */
export function sendDocument(ctx: MethodContext): Message {
  const content = readCaption(ctx);
  const markup = readReplyMarkup(ctx.params);
  const chat = resolveChat(ctx);
  const input = readInputFile(ctx, 'document');
  if ('known' in input && input.known.kind === 'photo') throw typeMismatch();
  const document =
    'known' in input
      ? input.known
      : ctx.world.storeFile({ kind: 'document', fileName: input.upload.filename, mimeType: mimeTypeOf(input.upload.filename), bytes: input.upload.bytes });
  return addBotMessage(ctx, chat, markup, { content, document, linkPreviewOptions: undefined });
}
