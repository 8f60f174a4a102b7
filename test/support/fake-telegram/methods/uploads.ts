import { badRequest } from '../api-error.ts';
import { formatText, readParseMode } from '../formatting/format-text.ts';
import type { UploadedFile } from '../request-body.ts';
import type { MessageContent, StoredDocument } from '../world.ts';
import type { MethodContext } from './context.ts';

/**
 * What the send methods that carry a file share: the file parameter (a multipart upload or the
 * file_id of a file Telegram already has) and the caption, checked and worded as the Bot API
 * does. Bodies over the 50 MB upload limit never get here: the HTTP layer answers 413.
 */

export const MAX_CAPTION_LENGTH = 1024;

/** The file parameter: new bytes, or a file Telegram already keeps. */
export type InputFile = { readonly upload: UploadedFile } | { readonly known: StoredDocument };

export function readInputFile(ctx: MethodContext, field: 'document' | 'photo'): InputFile {
  const input = ctx.params.file(field);
  if (input === undefined) throw badRequest(`there is no ${field} in the request`);
  return inputFileOf(ctx, input);
}

/** An upload or a file_id (a URL is refused: the fake fetches nothing), checked as Telegram checks it. */
export function inputFileOf(ctx: MethodContext, input: UploadedFile | string): InputFile {
  if (typeof input !== 'string') {
    if (input.bytes.length === 0) throw badRequest('file must be non-empty');
    // A copy: the upload is a view into the request body, which should not be kept alive whole.
    return { upload: { ...input, bytes: Buffer.from(input.bytes) } };
  }
  if (/^https?:\/\//i.test(input)) throw badRequest('failed to get HTTP URL content');
  const known = ctx.world.file(input);
  if (!known) throw badRequest('wrong file identifier/HTTP URL specified');
  return { known };
}

/** The Bot API's answer to a file_id of the wrong sort: a photo's id given to sendDocument, say. */
export const typeMismatch = () => badRequest('type of file mismatch');

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
  webp: 'image/webp',
};

export function mimeTypeOf(fileName: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return MIME_BY_EXTENSION[extension] ?? 'application/octet-stream';
}

/** The caption parameters every upload shares, checked as Telegram checks them. */
export function readCaption(ctx: MethodContext): MessageContent {
  const { params } = ctx;
  return captionContent(params.string('caption'), params.string('parse_mode'), params.values.caption_entities);
}

/** A caption as sent (the parameters, or an InputMedia's fields), parsed and checked. */
export function captionContent(source: string | undefined, parseModeName: string | undefined, entities: unknown): MessageContent {
  const parseMode = readParseMode(parseModeName);
  const formatted = source ? formatText(source, parseMode, entities) : undefined;
  if (formatted && formatted.text.length > MAX_CAPTION_LENGTH) throw badRequest('message caption is too long');
  return {
    caption: formatted?.text ?? '',
    entities: formatted?.entities ?? [],
    ...(source !== undefined && { source }),
    ...(parseMode && { parseMode }),
  };
}
