import type { IncomingMessage } from 'node:http';
import { boundaryOf, parseMultipart } from './multipart.ts';

/** A file part of a multipart upload, as the bot sent it. */
export interface UploadedFile {
  /** The part's form name: the attach:// id grammY generated, or the parameter name. */
  readonly field: string;
  readonly filename: string;
  readonly contentType: string | undefined;
  readonly bytes: Buffer;
}

export interface DecodedRequest {
  readonly params: Record<string, unknown>;
  readonly files: ReadonlyMap<string, UploadedFile>;
}

/**
 * Telegram's upload limit for bots (50 MB), applied as its front end applies it: to the whole
 * request body, whatever the method.
 */
export const MAX_BODY_BYTES = 50 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

/**
 * The request body; BodyTooLargeError past MAX_BODY_BYTES. The rest of a too-large body is still
 * read (and dropped) so that the client, which is busy sending it, gets the 413 answer rather
 * than a connection reset.
 */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size <= MAX_BODY_BYTES) chunks.push(buffer);
    else chunks.length = 0;
  }
  if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`request body of ${size} bytes`);
  return Buffer.concat(chunks);
}

/**
 * Parameters whose form-encoded value is JSON (numbers, booleans, objects). Multipart and query
 * strings carry every value as text; decoding these makes both transports look alike to the
 * handlers and to tests reading `calls`. Text-like fields are deliberately absent: "123" sent as
 * a message text must stay a string.
 */
const JSON_VALUED = new Set([
  'chat_id',
  'message_id',
  'message_ids',
  'message_thread_id',
  'reply_to_message_id',
  'reply_markup',
  'reply_parameters',
  'link_preview_options',
  'entities',
  'caption_entities',
  'disable_notification',
  'protect_content',
  'allow_sending_without_reply',
  'disable_web_page_preview',
  'disable_content_type_detection',
  'show_caption_above_media',
  'offset',
  'limit',
  'timeout',
  'allowed_updates',
  'cache_time',
  'show_alert',
  'commands',
  'scope',
  'drop_pending_updates',
]);

function decodeValue(name: string, value: unknown): unknown {
  if (typeof value !== 'string' || !JSON_VALUED.has(name)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value; // e.g. chat_id "@channel"; the handler words the error
  }
}

function decodeAll(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) out[name] = decodeValue(name, value);
  return out;
}

export class MalformedRequestError extends Error {}

export function decodeRequest(contentType: string | undefined, body: Buffer, query: URLSearchParams): DecodedRequest {
  const params: Record<string, unknown> = Object.fromEntries(query);
  const files = new Map<string, UploadedFile>();
  const type = (contentType ?? '').toLowerCase();

  if (body.length > 0 && type.startsWith('application/json')) {
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      throw new MalformedRequestError("can't parse JSON object");
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new MalformedRequestError("can't parse JSON object");
    }
    Object.assign(params, json);
  } else if (type.startsWith('multipart/form-data')) {
    const boundary = boundaryOf(contentType ?? '');
    if (boundary === undefined) throw new MalformedRequestError('multipart boundary is missing');
    let parts;
    try {
      parts = parseMultipart(body, boundary);
    } catch (error) {
      throw new MalformedRequestError(error instanceof Error ? error.message : String(error));
    }
    for (const part of parts) {
      if (part.filename === undefined) params[part.name] = part.body.toString('utf8');
      else {
        const { name: field, filename, contentType: partType, body: bytes } = part;
        files.set(field, { field, filename, contentType: partType, bytes });
      }
    }
  } else if (body.length > 0 && type.startsWith('application/x-www-form-urlencoded')) {
    Object.assign(params, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
  }
  return { params: decodeAll(params), files };
}
