import type { Message } from 'grammy/types';
import { readReplyMarkup } from '../reply-markup.ts';
import { addBotMessage } from './bot-message.ts';
import type { MethodContext } from './context.ts';
import { resolveChat } from './targets.ts';
import { mimeTypeOf, readCaption, readInputFile, typeMismatch } from './uploads.ts';

/**
 * A photo: Telegram keeps it in several sizes, each with its own file_id. Re-sending any size's
 * file_id re-sends the whole photo under the same ids; a document's file_id is refused.
 */
export function sendPhoto(ctx: MethodContext): Message {
  const content = readCaption(ctx);
  const markup = readReplyMarkup(ctx.params);
  const chat = resolveChat(ctx);
  const input = readInputFile(ctx, 'photo');
  const sizes =
    'known' in input
      ? ctx.world.photoSizes(input.known.fileId)
      : ctx.world.storePhoto({ fileName: input.upload.filename, mimeType: mimeTypeOf(input.upload.filename), bytes: input.upload.bytes });
  if (!sizes) throw typeMismatch();
  return addBotMessage(ctx, chat, markup, { content, document: undefined, media: { kind: 'photo', files: sizes }, linkPreviewOptions: undefined });
}
