import { isDeepStrictEqual } from 'node:util';
import type { Message } from 'grammy/types';
import { badRequest } from '../api-error.ts';
import { toBotApiMessage } from '../message-view.ts';
import { isRecord } from '../params.ts';
import { readInlineMarkup } from '../reply-markup.ts';
import { unixNow, type StoredDocument, type StoredMedia } from '../world.ts';
import type { MethodContext } from './context.ts';
import { editableMessage, NOT_MODIFIED } from './edit-message.ts';
import { captionContent, inputFileOf, mimeTypeOf, typeMismatch } from './uploads.ts';

/** The kinds of InputMedia the fake takes; Telegram's others (video, animation, audio) it refuses by name. */
const SUPPORTED = new Set(['photo', 'document']);
const KNOWN = new Set(['photo', 'document', 'video', 'animation', 'audio']);

/**
 * editMessageMedia: the bot's message gets a new photo or document, uploaded (`media:
 * "attach://<part>"`, the part beside it in the multipart body) or by file_id, with the
 * InputMedia's caption (none: the caption goes) and the keyboard given (none: it goes), as in
 * Telegram. A text message may become one with media; the same file with the same caption and
 * keyboard is "not modified". The old file stays in the message's history.
 */
export function editMessageMedia(ctx: MethodContext): Message {
  const { params } = ctx;
  const media = params.json('media', "can't parse input media JSON object");
  if (media === undefined) throw badRequest("can't parse input media JSON object");
  if (!isRecord(media)) throw badRequest("can't parse InputMedia: expected an Object");
  const type = media.type;
  if (typeof type !== 'string' || !KNOWN.has(type)) throw badRequest("can't parse InputMedia: media type is not specified or invalid");
  if (!SUPPORTED.has(type)) throw badRequest(`InputMedia of type "${type}" is not supported by the fake Telegram server`);
  if (typeof media.media !== 'string' || media.media === '') throw badRequest("can't parse InputMedia: Media is not specified");
  const content = captionContent(
    typeof media.caption === 'string' ? media.caption : undefined,
    typeof media.parse_mode === 'string' ? media.parse_mode : undefined,
    media.caption_entities,
  );
  const markup = readInlineMarkup(params);
  const record = editableMessage(ctx);
  const input = inputFileOf(ctx, params.attached(media.media)!);

  let next: { media: StoredMedia | undefined; document: StoredDocument | undefined };
  if (type === 'photo') {
    const sizes =
      'known' in input
        ? ctx.world.photoSizes(input.known.fileId)
        : ctx.world.storePhoto({ fileName: input.upload.filename, mimeType: mimeTypeOf(input.upload.filename), bytes: input.upload.bytes });
    if (!sizes) throw typeMismatch();
    next = { media: { kind: 'photo', files: sizes }, document: undefined };
  } else {
    if ('known' in input && input.known.kind === 'photo') throw typeMismatch();
    const document =
      'known' in input
        ? input.known
        : ctx.world.storeFile({ kind: 'document', fileName: input.upload.filename, mimeType: mimeTypeOf(input.upload.filename), bytes: input.upload.bytes });
    next = { media: undefined, document };
  }

  const sameFile =
    (next.document !== undefined && next.document.fileId === record.document?.fileId) ||
    (next.media !== undefined && next.media.files.at(-1)?.fileId === record.media?.files.at(-1)?.fileId);
  const sameCaption = record.content.caption === content.caption && isDeepStrictEqual([...record.content.entities], [...content.entities]);
  if (sameFile && sameCaption && isDeepStrictEqual(record.replyMarkup, markup)) throw badRequest(NOT_MODIFIED);

  record.history.push({
    kind: 'media',
    content: record.content,
    replyMarkup: record.replyMarkup,
    document: record.document,
    media: record.media,
    replacedAt: Date.now(),
  });
  record.content = content;
  record.replyMarkup = markup;
  record.media = next.media;
  record.document = next.document;
  record.editDate = unixNow();
  return toBotApiMessage(ctx.world, record);
}
