import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** The address of the socket a request came on, as the server saw it; undefined where it cannot tell. */
export function peerOf(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
