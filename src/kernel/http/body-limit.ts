import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** `/api/auth/*` takes a login link's secret or a chat app's launch data: a few hundred bytes. */
export const AUTH_BODY_BYTES = 8 * 1024;
/** The rest of the API, and anything else the server is sent: the chat page's longest message (4096 characters), JSON-escaped, fits many times over. */
export const API_BODY_BYTES = 64 * 1024;

/**
 * After a 413, how much more of the body is thrown away unread, and for how long, before the
 * connection is cut: a client still sending gets to read its answer (cut at once, it would
 * fail to write and never see it), and nobody keeps the server reading for ever.
 */
const DISCARDED_BYTES = 64 * 1024 * 1024;
const DISCARDING_MS = 10_000;

/** How many bytes, as people read them. */
function bytesShown(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KiB`;
}

/**
 * At most `maxBytes` of body, judged before it is read: a Content-Length past it is refused at
 * once, and a body without one (chunked) is counted as it streams and cut off where it passes
 * the limit. The answer is 413 with a JSON error; the rest of the body is thrown away as it
 * comes, never held. `refuse` answers in the route's own way (the webhooks audit it).
 * The server must run with @hono/node-server's `autoCleanupIncoming: false`: its own clean-up
 * cuts the connection half a second after the answer, which a client still sending takes for
 * a failure.
 */
export function limitBody(maxBytes: number, refuse?: (c: Context, message: string) => Response | Promise<Response>): MiddlewareHandler {
  const message = `The body is larger than ${bytesShown(maxBytes)}.`;
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      discardRest(c);
      return refuse ? refuse(c, message) : c.json({ error: message }, 413);
    },
  });
}

/** Throws the rest of the request's body away as it comes, up to a limit, then cuts the connection. */
function discardRest(c: Context): void {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || incoming.readableEnded) return;
  const cut = () => incoming.socket?.destroy();
  const timer = setTimeout(cut, DISCARDING_MS).unref();
  let discarded = 0;
  // Whatever read the body so far (the request's stream) reads no more of it.
  incoming.removeAllListeners('data');
  incoming.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARDED_BYTES) cut();
  });
  incoming.once('end', () => clearTimeout(timer));
  incoming.once('close', () => clearTimeout(timer));
  incoming.resume();
}
