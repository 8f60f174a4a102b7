import { createClient, MatrixError, type MatrixClient, type Method } from 'matrix-js-sdk';
import { logger } from 'matrix-js-sdk/lib/logger.js';
import type { Log } from '../../kernel/log/logger.ts';
import type { ReadyMatrixSettings } from './settings.ts';
import type { KeptSync } from './kept-sync.ts';

// The SDK's own lines go to the console, a warning for each push rule a homeserver leaves out:
// only its errors are kept, and the bridge's log says what matters (the sync lost and back).
(logger as unknown as { setLevel(level: string): void }).setLevel('error');

/**
 * The bot's client, matrix-js-sdk's MatrixClient: its /sync loop (long polls with `since`
 * tokens, resumed from the token kept in the data directory) and its HTTP API, which the
 * outbound calls directly so that each call's M_LIMIT_EXCEEDED is the send budget's to wait out.
 */
export function matrixClient(settings: ReadyMatrixSettings, userId: string, store?: KeptSync, log?: Log): MatrixClient {
  return createClient({
    baseUrl: settings.homeserverUrl,
    accessToken: settings.accessToken,
    userId,
    ...(store ? { store } : {}),
    ...(log ? { logger: sdkLogger(log) } : {}),
  });
}

/** A call of the Client-Server API under /_matrix/client/v3: its JSON answer, or the SDK's MatrixError. */
export function call<T>(client: MatrixClient, method: 'GET' | 'PUT' | 'POST', path: string, body?: Record<string, unknown>): Promise<T> {
  return client.http.authedRequest<T>(method as Method, path, undefined, body);
}

/** A room's endpoint, `/rooms/{id}/…`, each part of it encoded. */
export function roomPath(roomId: string, ...parts: string[]): string {
  return `/rooms/${[roomId, ...parts].map(encodeURIComponent).join('/')}`;
}

/** Seconds the homeserver asked to wait, when `error` is its M_LIMIT_EXCEEDED (its `retry_after_ms`, or the Retry-After header). */
export function retryAfter(error: unknown): number | undefined {
  if (!(error instanceof MatrixError) || (error.errcode !== 'M_LIMIT_EXCEEDED' && error.httpStatus !== 429)) return undefined;
  const ms = error.data.retry_after_ms;
  return typeof ms === 'number' && ms > 0 ? ms / 1000 : 1;
}

export function errcodeOf(error: unknown): string | undefined {
  return error instanceof MatrixError ? error.errcode : undefined;
}

export function statusOf(error: unknown): number | undefined {
  return error instanceof MatrixError ? error.httpStatus : undefined;
}

/** The SDK's own lines, warnings and errors only, into the bridge's log. */
function sdkLogger(log: Log): Parameters<typeof createClient>[0]['logger'] & object {
  const quiet = () => {};
  const self = {
    trace: quiet,
    debug: quiet,
    info: quiet,
    warn: (...parts: unknown[]) => log.warn(`Matrix SDK: ${parts.map(String).join(' ')}`),
    error: (...parts: unknown[]) => log.error(`Matrix SDK: ${parts.map(String).join(' ')}`),
    getChild: () => self,
  };
  return self;
}
