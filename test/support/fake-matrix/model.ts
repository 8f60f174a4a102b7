import { randomBytes } from 'node:crypto';

/** The twin's server name: user ids are `@name:example.org`. */
export const SERVER = 'example.org';

export function newId(length = 18): string {
  return [...randomBytes(length)].map((b) => 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[b % 62]).join('');
}

export interface MatrixUser {
  userId: string;
  displayname: string;
  token: string;
}

/** One event of a room, at its place in the server's one stream (`pos`, what `since` tokens count). */
export interface RoomEvent {
  event_id: string;
  room_id: string;
  type: string;
  sender: string;
  content: Record<string, unknown>;
  origin_server_ts: number;
  state_key?: string;
  pos: number;
}

export interface FakeRoom {
  roomId: string;
  /** Current state, by `type\u0000state_key`. */
  state: Map<string, RoomEvent>;
  events: RoomEvent[];
}

export interface StoredMedia {
  mediaId: string;
  name: string;
  type: string;
  bytes: Buffer;
}

/** One call the twin took. */
export interface Call {
  method: string;
  /** The route with its ids replaced: `PUT /rooms/:room/send/:type/:txn`. */
  route: string;
  status: number;
  /** The room it was about. */
  room?: string;
  body?: Record<string, unknown>;
  /** The `since` of a /sync. */
  since?: string;
  at: number;
}

/** The Client-Server API's error answer: its status, `errcode` and `error`, and what else it carries (`retry_after_ms`). */
export class MatrixFault extends Error {
  constructor(
    readonly status: number,
    readonly errcode: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** An event's JSON is at most 65,536 bytes; the media repository's default upload limit (Synapse: 50M). */
export const MAX_EVENT_BYTES = 65_536;
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
