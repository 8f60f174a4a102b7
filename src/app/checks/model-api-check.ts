import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Adapter } from '../../engine/adapters/load.ts';
import { credentialProxy, heldApi, type HeldApi } from '../../engine/sandbox/credential-proxy.ts';
import { modelApiBase } from '../../engine/sandbox/model-api-access.ts';
import { fail, pass, type CheckResult } from '../../kernel/ports/check-result.ts';

/** Long enough for a slow network; past it a CLI would be retrying already. */
const ANSWER_WITHIN_MS = 10_000;

/** How the proxy says it could not reach the API (credential-proxy.ts): its 502's body. */
const PROXY_COULD_NOT = /^the bridge could not reach \S+: (.*)/;

type Answer = { ok: true; status: number } | { ok: false; why: string };

/**
 * Whether a CLI's model API answers, one line per CLI: a request to its base URL, where any
 * HTTP answer (a 404, a 401) says the way there works, and no answer is what would keep a turn
 * waiting for minutes. With the walls on and a credential the bridge holds for the CLI, the
 * request goes through the bridge's credential proxy, as the CLI's own would.
 */
export async function checkModelApi(adapter: Adapter, env: Record<string, string | undefined>, walls: boolean): Promise<CheckResult | undefined> {
  const access = adapter.walls.modelApi;
  if (!access) return undefined;
  const subject = `${adapter.name} model API`;
  const named = access.upstream.variable && env[access.upstream.variable] ? ` (${access.upstream.variable})` : '';
  const base = modelApiBase(access, env);
  // The CLI does not use this API as it is set (Copilot with a GitHub login rather than its own key).
  if (!base) return undefined;
  let held: HeldApi | undefined;
  try {
    held = walls ? heldApi(env, access) : undefined;
    new URL(base);
  } catch {
    return fail(subject, `${base} is not a URL`, `Set ${access.upstream.variable ?? 'its base URL'} to the API's URL, or unset it.`);
  }
  const how = held ? ' through the credential proxy' : '';
  const started = Date.now();
  const answer = held ? await throughProxy(held) : await ask(base, {});
  const tried = `${base}${named}${how}`;
  if (answer.ok) return pass(subject, `${tried} answered (HTTP ${answer.status} in ${Date.now() - started} ms)`);
  return fail(
    subject,
    `${tried} did not answer: ${answer.why}`,
    `Check this machine's network and DNS${named ? `, and ${access.upstream.variable}` : ''}: each turn on ${adapter.name} waits on this API.`,
  );
}

/** A request to `url`, or to the proxy's socket when `socketPath` is given: its status, or why none came. */
function ask(url: string, options: RequestOptions): Promise<Answer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' && !options.socketPath ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const request = send(target, { method: 'GET', timeout: ANSWER_WITHIN_MS, ...options }, (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.length < 4 && chunks.push(chunk));
      response.on('end', () => {
        const said = PROXY_COULD_NOT.exec(Buffer.concat(chunks).toString('utf8').trim());
        resolve(response.statusCode === 502 && said ? { ok: false, why: said[1]! } : { ok: true, status: response.statusCode ?? 0 });
      });
      response.on('error', (error) => resolve({ ok: false, why: error.message }));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${ANSWER_WITHIN_MS / 1000} s`)));
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ ok: false, why: networkWords(error) }));
    request.end();
  });
}

/**
 * The API asked through a credential proxy of its own, on a socket in a folder of its own, gone
 * after, with a call the proxy sends on (its adapter's `routes`): a GET or HEAD where there is
 * one, else its first call with no body, which the API refuses (an answer all the same).
 */
async function throughProxy(api: HeldApi): Promise<Answer> {
  const dir = await mkdtemp(join(tmpdir(), 'jsonl-bridge-doctor-'));
  const socketPath = join(dir, 'model-api.sock');
  const proxy = credentialProxy(socketPath, api, { refused: () => {}, metered: () => {} });
  const calls = api.access.routes.map((route) => {
    const [method = 'GET', path = '/'] = route.split(' ');
    return { method: method === '*' ? 'GET' : method, path: path.replace(/\/\*\*$/, '/').replaceAll('/*', '/x') };
  });
  const call = calls.find(({ method }) => method === 'GET' || method === 'HEAD') ?? calls[0] ?? { method: 'GET', path: '/' };
  try {
    return await ask(`http://model-api${call.path}`, { socketPath, method: call.method });
  } finally {
    proxy.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A failed connection in words: which step failed, with the system's code. */
function networkWords(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `no such host (${error.code}: the name does not resolve)`;
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED)';
    default:
      return error.code ? `${error.message} (${error.code})` : error.message;
  }
}
