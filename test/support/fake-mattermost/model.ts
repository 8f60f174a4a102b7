import { randomBytes } from 'node:crypto';

/** A Mattermost id: 26 lowercase letters and digits. */
export function newId(): string {
  return [...randomBytes(26)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');
}

export interface User {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  nickname: string;
  is_bot: boolean;
}

export interface Channel {
  id: string;
  /** O: open, P: private, D: direct. */
  type: 'O' | 'P' | 'D';
  name: string;
  display_name: string;
  members: Set<string>;
}

export interface Post {
  id: string;
  channel_id: string;
  root_id: string;
  user_id: string;
  message: string;
  type: string;
  create_at: number;
  update_at: number;
  edit_at: number;
  props: Record<string, unknown>;
  file_ids: string[];
  /** Every version of its message, the first as posted. */
  versions: string[];
  ephemeralTo?: string;
}

export interface StoredFile {
  id: string;
  name: string;
  mime_type: string;
  size: number;
  bytes: Buffer;
  channel_id: string;
}

/** One REST call the twin took. */
export interface Call {
  method: string;
  /** The route with its ids replaced: `PUT /posts/:id/patch`. */
  route: string;
  status: number;
  /** The channel it was about: its body's, or its post's. */
  chat?: string;
  body?: Record<string, unknown>;
  at: number;
}

/** Mattermost's error answer: its id, message and status, as its REST API writes them. */
export class MattermostFault extends Error {
  constructor(
    readonly status: number,
    readonly id: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A post's limit in characters (PostMessageMaxRunesV2), and a file's (FileSettings.MaxFileSize), as the server's defaults. */
export const MAX_POST_RUNES = 16383;
export const MAX_FILE_BYTES = 100 * 1024 * 1024;
