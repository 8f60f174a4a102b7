import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Changes } from '../fake-telegram/changes.ts';
import { APP_TOKEN_METHODS, METHODS, REQUIRED_SCOPES, type MethodContext, type Params } from './methods.ts';
import type { RateLimits } from './rate-limits.ts';
import { RateLimited, SlackError } from './slack-error.ts';

/** One Web API call the app made, in arrival order. */
export interface SlackCall {
  readonly seq: number;
  readonly method: string;
  readonly params: Params;
  readonly time: number;
  /** HTTP status (429 for a rate limit). */
  status: number;
  /** Slack's `ok`; its `error` when not. */
  ok: boolean;
  error?: string;
  response: Record<string, unknown>;
}

/** A fault a test plans: the next call(s) of a method answer this error. */
export interface PlannedError {
  method: string;
  error: string;
  /** 429 and Retry-After seconds, as a rate limit. */
  retryAfter?: number;
}

export interface WebApiDeps extends Omit<MethodContext, 'origin'> {
  readonly botToken: string;
  readonly appToken: string;
  readonly calls: SlackCall[];
  readonly planned: PlannedError[];
  readonly changes: Changes;
  rateLimits: RateLimits | undefined;
  /** The bot token's scopes; undefined: every scope. */
  readonly scopes: ReadonlySet<string> | undefined;
}

/** The body as Slack reads it: form-encoded (what @slack/web-api sends) or JSON. */
async function paramsOf(req: IncomingMessage, body: Buffer): Promise<Params> {
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/json')) return body.length ? (JSON.parse(body.toString('utf8')) as Params) : {};
  if (type.includes('multipart/form-data')) {
    const form = await new Request('http://fake/', { method: 'POST', headers: { 'content-type': type }, body }).formData();
    const params: Params = {};
    for (const [key, value] of form) params[key] = typeof value === 'string' ? value : Buffer.from(await value.arrayBuffer());
    return params;
  }
  return Object.fromEntries(new URLSearchParams(body.toString('utf8')));
}

function tokenOf(req: IncomingMessage, params: Params): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return typeof params.token === 'string' ? params.token : undefined;
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** `POST /api/<method>`: checks the token, the planned faults and the rate limits, then runs the method. */
export async function handleApiCall(deps: WebApiDeps, origin: string, method: string, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
  let params: Params;
  try {
    params = await paramsOf(req, body);
  } catch {
    return answer(res, 200, { ok: false, error: 'invalid_form_data' });
  }
  const call: SlackCall = { seq: deps.calls.length + 1, method, params, time: Date.now(), status: 200, ok: false, response: {} };
  deps.calls.push(call);
  let headers: Record<string, string> = {};
  try {
    const run = METHODS[method];
    if (!run) throw new SlackError('unknown_method');
    const token = tokenOf(req, params);
    if (!token) throw new SlackError('not_authed');
    const wanted = APP_TOKEN_METHODS.has(method) ? deps.appToken : deps.botToken;
    if (token !== wanted) throw new SlackError(token === deps.botToken || token === deps.appToken ? 'not_allowed_token_type' : 'invalid_auth');
    const needed = REQUIRED_SCOPES[method]?.(params);
    if (needed && deps.scopes && !deps.scopes.has(needed)) throw new SlackError('missing_scope', { needed, provided: [...deps.scopes].join(',') });
    const planned = deps.planned.findIndex((p) => p.method === method || p.method === '*');
    if (planned >= 0) {
      const [fault] = deps.planned.splice(planned, 1);
      throw fault!.retryAfter !== undefined ? new RateLimited(fault!.retryAfter) : new SlackError(fault!.error);
    }
    deps.rateLimits?.check(method, typeof params.channel === 'string' ? params.channel : undefined);
    call.response = { ok: true, ...run({ ...deps, origin }, params) };
    call.ok = true;
  } catch (error) {
    if (!(error instanceof SlackError)) throw error;
    call.error = error.error;
    call.response = { ok: false, error: error.error, ...error.extra };
    if (error instanceof RateLimited) {
      call.status = 429;
      headers = { 'retry-after': String(error.retryAfterSeconds) };
    }
  }
  answer(res, call.status, call.response, headers);
  deps.changes.notify();
}
