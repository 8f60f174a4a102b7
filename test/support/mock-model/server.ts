// One node:http server that impersonates every backend the CLIs talk to: Anthropic Messages
// (claude, droid BYOK), OpenAI Responses (codex), OpenAI chat completions (Qwen Code), Factory's
// /api and the Gemini API (Gemini CLI).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { normalizeAnthropic, sendAnthropicError, streamAnthropic } from './anthropic.ts';
import { waitUnlessAborted } from './delay.ts';
import { GEMINI_PATH, normalizeGemini, sendGeminiError, streamGemini } from './gemini.ts';
import { normalizeOpenAi, sendOpenAiError, streamOpenAi } from './openai.ts';
import { answerOpenAiChat, normalizeOpenAiChat } from './openai-chat.ts';
import { asRecord } from './reply.ts';
import { defaultScript } from './scripts.ts';
import { sendJson } from './sse.ts';
import type { ModelApi, ModelRequest, RecordedRequest, Reply, Script } from './types.ts';

export interface MockModelOptions {
  script?: Script;
}

export interface MockModel {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly port: number;
  /** Every HTTP request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Only the model requests, normalized. */
  readonly modelRequests: ModelRequest[];
  /** Errors thrown by the script (answered with HTTP 400) or while handling a request (HTTP 500). */
  readonly scriptErrors: unknown[];
  /** Replace to change behaviour between runs. */
  script: Script;
  /** Clears recorded requests and errors, restarts `ModelRequest.index` at 0; optionally swaps the script. */
  reset(script?: Script): void;
  /** Stops listening and destroys open sockets, ending any delayed replies. Safe to call twice. */
  close(): Promise<void>;
}

const MODEL_ROUTES: Record<string, ModelApi> = {
  '/v1/messages': 'anthropic',
  '/v1/responses': 'openai',
  '/v1/chat/completions': 'openai-chat',
  // droid with a Factory key calls the models through Factory's API.
  '/api/llm/a/v1/messages': 'anthropic',
  '/api/llm/o/v1/responses': 'openai',
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function startMockModel(options: MockModelOptions = {}): Promise<MockModel> {
  const requests: RecordedRequest[] = [];
  const scriptErrors: unknown[] = [];
  const shutdown = new AbortController();
  const counters = { model: 0, message: 0, toolUse: 0, response: 0, item: 0, call: 0, geminiCall: 0, completion: 0 };
  const anthropicIds = {
    message: () => `msg_mock_${++counters.message}`,
    toolUse: () => `toolu_mock_${++counters.toolUse}`,
  };
  const openAiIds = {
    response: () => `resp_mock_${++counters.response}`,
    item: () => `item_mock_${++counters.item}`,
    call: () => `call_mock_${++counters.call}`,
  };

  /** A Gemini call names its model in its path, and streams or not by its method. */
  type GeminiCall = { model: string; streaming: boolean };

  async function answerModel(api: ModelApi, body: Record<string, unknown>, record: RecordedRequest, res: ServerResponse, gemini?: GeminiCall): Promise<void> {
    // Watch for the CLI hanging up from the start: a cancel may come while the script still runs.
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    if (res.destroyed || res.socket?.destroyed) gone.abort();
    const request = gemini
      ? normalizeGemini(body, counters.model++, gemini.model)
      : (api === 'anthropic' ? normalizeAnthropic : api === 'openai-chat' ? normalizeOpenAiChat : normalizeOpenAi)(body, counters.model++);
    record.model = request;
    let reply: Reply;
    try {
      reply = await mock.script(request);
    } catch (error) {
      // 400 rather than 5xx: the CLIs retry server errors with backoff, which would only slow the failing test.
      scriptErrors.push(error);
      reply = { error: { status: 400, message: `mock script failed: ${String(error)}` } };
    }
    if (reply.delayMs !== undefined) {
      const stop = AbortSignal.any([gone.signal, shutdown.signal]);
      if (!(await waitUnlessAborted(reply.delayMs, stop))) return;
    }
    if (gone.signal.aborted) return;
    if (gemini) {
      if (reply.error) sendGeminiError(res, reply.error);
      else streamGemini(res, request, reply, gemini.streaming, () => `gemini_call_${++counters.geminiCall}`);
    } else if (reply.error) {
      (api === 'anthropic' ? sendAnthropicError : sendOpenAiError)(res, reply.error);
    } else if (api === 'anthropic') {
      streamAnthropic(res, request.model, reply, anthropicIds);
    } else if (api === 'openai-chat') {
      answerOpenAiChat(res, request, reply, { completion: () => `chatcmpl_mock_${++counters.completion}`, call: openAiIds.call });
    } else {
      streamOpenAi(res, request, reply, openAiIds);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const path = new URL(url, 'http://mock').pathname;
    const body = parseBody(await readBody(req));
    const record: RecordedRequest = { method, url, headers: req.headers, body };
    requests.push(record);

    const api = MODEL_ROUTES[path];
    const json = asRecord(body);
    const gemini = GEMINI_PATH.exec(path);
    if (method === 'POST' && gemini && json !== undefined) {
      await answerModel('gemini', json, record, res, { model: gemini[1]!, streaming: gemini[2] === 'streamGenerateContent' });
    } else if (method === 'POST' && api !== undefined && json !== undefined) {
      await answerModel(api, json, record, res);
    } else if (path.startsWith('/api/')) {
      // Factory backend (droid): sessions, flags, usage... all accept an empty object.
      sendJson(res, 200, {});
    } else if (method === 'HEAD') {
      // claude probes `HEAD /` for connectivity.
      res.writeHead(200).end();
    } else if (method === 'GET') {
      sendJson(res, 200, {});
    } else {
      sendJson(res, 404, { error: { message: `mock: no route for ${method} ${path}` } });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      scriptErrors.push(error);
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
      else res.destroy();
    });
  });
  // codex first asks for its Responses API over a WebSocket (`GET /v1/responses`, upgrade):
  // recorded, and refused as an API without them refuses it (426), so it goes on over HTTP at once.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: undefined });
    socket.on('error', () => {});
    socket.end('HTTP/1.1 426 Upgrade Required\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  const mock: MockModel = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    get modelRequests() {
      return requests.map((r) => r.model).filter((m): m is ModelRequest => m !== undefined);
    },
    scriptErrors,
    script: options.script ?? defaultScript,
    reset(script) {
      requests.length = 0;
      counters.model = 0;
      scriptErrors.length = 0;
      if (script) mock.script = script;
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        shutdown.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive and held (delayed) connections would otherwise keep close() pending.
        server.closeAllConnections();
      });
      return closing;
    },
  };
  return mock;
}
