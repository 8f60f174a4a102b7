import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.ts';
import type { BotState } from './bot-state.ts';
import type { CallLog, ErrorEnvelope, RecordedCall } from './call-log.ts';
import type { Changes } from './changes.ts';
import { faultError, type FaultPlan } from './faults.ts';
import type { FloodLimits } from './flood-limits.ts';
import type { BotSettings, MethodContext } from './methods/context.ts';
import { findHandler } from './methods/registry.ts';
import { serveDownload } from './downloads.ts';
import { Params } from './params.ts';
import { BodyTooLargeError, decodeRequest, MalformedRequestError, readBody } from './request-body.ts';
import type { UpdateQueue } from './update-queue.ts';
import type { World } from './world.ts';

/**
 * Serves `/bot<token>/<method>` as the Bot API does: the token is checked first, then the
 * method, then its parameters; every answer is Telegram's JSON envelope with the HTTP status
 * equal to `error_code`. Each call is recorded, and injected faults are applied here. File
 * downloads (`/file/bot<token>/<path>`) are served by downloads.ts.
 */

export interface RouterDeps {
  readonly token: string;
  readonly world: World;
  readonly updates: UpdateQueue;
  readonly state: BotState;
  readonly settings: BotSettings;
  readonly calls: CallLog;
  readonly faults: FaultPlan;
  readonly changes: Changes;
  /** Telegram's per-chat flood limits, when the test asked for them. */
  readonly flood?: FloodLimits;
}

type Envelope = { ok: true; result: unknown } | ErrorEnvelope;

function errorEnvelope(error: ApiError): ErrorEnvelope {
  return {
    ok: false,
    error_code: error.code,
    description: error.description,
    ...(error.parameters && { parameters: error.parameters }),
  };
}

function send(res: ServerResponse, envelope: Envelope): void {
  if (res.destroyed || res.writableEnded) return;
  const body = JSON.stringify(envelope);
  res.writeHead(envelope.ok ? 200 : envelope.error_code, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Destroys the connection without a response, like a network failure would. */
function drop(req: IncomingMessage, deps: RouterDeps, call: RecordedCall): void {
  req.socket.destroy();
  deps.calls.finish(call, { status: 0, ok: false, injected: true });
}

async function runMethod(deps: RouterDeps, ctx: MethodContext, method: string): Promise<Envelope> {
  const handler = findHandler(method);
  if (!handler) return errorEnvelope(new ApiError(404, 'Not Found'));
  try {
    return { ok: true, result: await handler(ctx) };
  } catch (error) {
    if (error instanceof ApiError) return errorEnvelope(error);
    // A bug in the fake, not a Telegram answer: make it loud, and answer 400 rather than 5xx
    // so that auto-retry surfaces it instead of retrying forever.
    console.error(`[fake-telegram] ${method} crashed:`, error);
    const reason = error instanceof Error ? error.message : String(error);
    return errorEnvelope(new ApiError(400, `Bad Request: fake-telegram crashed in ${method}: ${reason}`));
  } finally {
    deps.changes.notify();
  }
}

/** A malformed %-escape names no file: leave it as it is, and let the lookup answer 404. */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

async function handle(deps: RouterDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake-telegram');
  const match = /^\/bot([^/]+)\/([^/]*)$/.exec(url.pathname);
  let body: Buffer;
  try {
    body = await readBody(req);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    // Telegram's front end refuses the body before the Bot API looks at token or method.
    const envelope = errorEnvelope(new ApiError(413, 'Request Entity Too Large'));
    send(res, envelope);
    if (match?.[1] === deps.token && match[2]) {
      const call = deps.calls.begin(match[2], Object.fromEntries(url.searchParams), []);
      deps.calls.finish(call, { status: 413, ok: false, error: envelope, injected: false });
    }
    return;
  }
  const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
  if (download) return serveDownload(deps, req, res, download[1]!, safeDecode(download[2]!));
  if (!match) return send(res, errorEnvelope(new ApiError(404, 'Not Found')));
  const [, token, method = ''] = match;
  if (token !== deps.token) return send(res, errorEnvelope(new ApiError(401, 'Unauthorized')));
  if (method === '') return send(res, errorEnvelope(new ApiError(404, 'Not Found')));

  let decoded;
  try {
    decoded = decodeRequest(req.headers['content-type'], body, url.searchParams);
  } catch (error) {
    if (error instanceof MalformedRequestError) {
      return send(res, errorEnvelope(new ApiError(400, `Bad Request: ${error.message}`)));
    }
    throw error;
  }
  const call = deps.calls.begin(method, decoded.params, decoded.files.values());

  const fault = deps.faults.take(method, decoded.params.chat_id, decoded.params.text);
  if (fault && 'hang' in fault) {
    res.on('close', () => deps.calls.finish(call, { status: 0, ok: false, injected: true }));
    return;
  }
  if (fault && 'networkDrop' in fault && !fault.afterProcessing) return drop(req, deps, call);
  if (fault && 'code' in fault) {
    const envelope = errorEnvelope(faultError(fault));
    send(res, envelope);
    return deps.calls.finish(call, { status: envelope.error_code, ok: false, error: envelope, injected: true });
  }

  const flooded = deps.flood?.check(method, decoded.params.chat_id);
  if (flooded) {
    const envelope = errorEnvelope(flooded);
    send(res, envelope);
    return deps.calls.finish(call, { status: envelope.error_code, ok: false, error: envelope, injected: false });
  }

  // Lets a long poll end when the client goes away (e.g. runner.stop() aborts its fetch).
  const clientGone = new AbortController();
  res.on('close', () => {
    if (!res.writableEnded) clientGone.abort();
  });
  const ctx: MethodContext = {
    params: new Params(decoded.params, decoded.files),
    world: deps.world,
    updates: deps.updates,
    state: deps.state,
    settings: deps.settings,
    signal: clientGone.signal,
  };
  const envelope = await runMethod(deps, ctx, method);
  if (fault) return drop(req, deps, call); // networkDrop after the method took effect
  if (res.destroyed) return deps.calls.finish(call, { status: 0, ok: false, injected: false });
  send(res, envelope);
  deps.calls.finish(
    call,
    envelope.ok
      ? { status: 200, ok: true, result: envelope.result, injected: false }
      : { status: envelope.error_code, ok: false, error: envelope, injected: false },
  );
}

export function createRequestListener(deps: RouterDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((error: unknown) => {
      console.error('[fake-telegram] request failed:', error);
      send(res, errorEnvelope(new ApiError(500, 'Internal Server Error')));
    });
  };
}
