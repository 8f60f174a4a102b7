import type { ChatCapabilities } from '../../kernel/ports/capabilities.ts';
import { appCapabilities, fitWithin } from '../serving/app-capabilities.ts';
import { renderHtml } from './format/html.ts';

/**
 * What Matrix lets a bot do, from the spec and Synapse's defaults: one place, asked by the core.
 * - messageChars: an event is at most 64 KiB of JSON, and a message carries its text twice
 *   (the plain `body` and the HTML); 8,000 characters leave room for both, escaped;
 * - uploadBytes: Synapse's max_upload_size, 50 MB unless the operator changed it;
 * - buttons are reactions on the question (1️⃣, 2️⃣ …): ten to a message, their data kept by the
 *   bridge, not the server;
 * - editsPerMinute: Synapse's rc_message lets a user send one event every 5 s past a burst of
 *   10 unless the operator exempts the bot (docs/matrix.md says how): progress edits keep to
 *   one every 2 s, and an M_LIMIT_EXCEEDED pauses the room for the time it asks;
 * - commands are `!status`: Matrix clients take `/…` for themselves.
 */
export const MATRIX_CAPABILITIES: ChatCapabilities = appCapabilities({
  messageChars: 8000,
  captionChars: 0,
  uploadBytes: 50 * 1024 * 1024,
  photoBytes: 50 * 1024 * 1024,
  buttonPayloadBytes: 1024,
  buttonsPerRow: 10,
  editsPerMinute: 30,
  commandPrefix: '!',
});

/**
 * A room's calls: the homeserver's limit is the bot's, across rooms, and a button costs a call
 * of its own (its key's reaction, then its redaction); eight in two seconds a room leaves room
 * for the others, and an M_LIMIT_EXCEEDED pauses the room for as long as it asks.
 */
export const MATRIX_ROOM_LIMIT = { max: 8, windowMs: 2000 };

/** How text fits a Matrix message: its HTML (the longer of its two renderings) within the message's characters. Files carry no caption to preview in. */
export const MATRIX_FIT = fitWithin(MATRIX_CAPABILITIES.messageChars, renderHtml);
