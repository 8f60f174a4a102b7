import type { Message } from 'grammy/types';
import { badRequest } from '../api-error.ts';
import { formatText, readParseMode } from '../formatting/format-text.ts';
import { readReplyMarkup } from '../reply-markup.ts';
import type { MessageContent, StoredDocument } from '../world.ts';
import type { MethodContext } from './context.ts';
import { resolveChat } from './targets.ts';
import { addBotMessage } from './bot-message.ts';

export const MAX_CAPTION_LENGTH = 1024;

// Telegram derives the MIME type from the file name; grammY always sends octet-stream.
const MIME_BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  json: 'application/json',
  xml: 'application/xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};

function mimeTypeOf(fileName: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return MIME_BY_EXTENSION[extension] ?? 'application/octet-stream';
}

/** An uploaded file (or the file_id of a known one) under parameter `field`. */
function readUpload(ctx: MethodContext, field: 'document' | 'photo'): StoredDocument {
  const input = ctx.params.file(field);
  if (input === undefined) throw badRequest(`there is no ${field} in the request`);
  if (typeof input === 'string') {
    if (/^https?:\/\//i.test(input)) throw badRequest('failed to get HTTP URL content');
    const known = ctx.world.file(input);
    if (!known) throw badRequest('wrong file identifier/HTTP URL specified');
    return known;
  }
  if (input.bytes.length === 0) throw badRequest('file must be non-empty');
  return ctx.world.storeFile(input.filename, mimeTypeOf(input.filename), Buffer.from(input.bytes));
}

/** The caption parameters every upload shares, checked as Telegram checks them. */
function readCaption(ctx: MethodContext): MessageContent {
  const { params } = ctx;
  const source = params.string('caption');
  const parseMode = readParseMode(params.string('parse_mode'));
  const formatted = source ? formatText(source, parseMode, params.values.caption_entities) : undefined;
  if (formatted && formatted.text.length > MAX_CAPTION_LENGTH) throw badRequest('message caption is too long');
  return {
    caption: formatted?.text ?? '',
    entities: formatted?.entities ?? [],
    ...(source !== undefined && { source }),
    ...(parseMode && { parseMode }),
  };
}

export function sendDocument(ctx: MethodContext): Message {
  const content = readCaption(ctx);
  const markup = readReplyMarkup(ctx.params);
  const chat = resolveChat(ctx);
  return addBotMessage(ctx, chat, markup, { content, document: readUpload(ctx, 'document'), linkPreviewOptions: undefined });
}

/** A photo: Telegram keeps it in several sizes; here they share the uploaded bytes. */
export function sendPhoto(ctx: MethodContext): Message {
  const content = readCaption(ctx);
  const markup = readReplyMarkup(ctx.params);
  const chat = resolveChat(ctx);
  const photo = readUpload(ctx, 'photo');
  return addBotMessage(ctx, chat, markup, {
    content,
    document: undefined,
    media: { kind: 'photo', files: [photo, photo, photo] },
    linkPreviewOptions: undefined,
  });
}
