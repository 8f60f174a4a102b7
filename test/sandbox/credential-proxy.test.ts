import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialProxy, heldApi, withoutCredentials, type HeldApi, type ProxyWatch } from '../../src/engine/sandbox/credential-proxy.ts';
import { credentialVariables, PLACEHOLDER_KEY } from '../../src/engine/sandbox/model-api-access.ts';
import type { ProxyMetering } from '../../src/engine/sandbox/proxy-metering.ts';
import type { UsageEvent } from '../../src/kernel/protocols/events.ts';
import { PriceTable } from '../../src/engine/usage/prices.ts';
import { tempDir } from '../support/bridge-process.ts';
import { listen, type RunningServer } from '../support/loopback-server.ts';
import { realAdapter, realAdapters } from '../support/real-adapters.ts';
import { startMockModel, type MockModel } from '../support/mock-model/index.ts';

// The credential proxy per CLI, on its own (no walls needed): what the CLI inside holds, what
// the API gets, the calls it refuses, and what it meters of the answers it passes.
let api: RunningServer | undefined;
let mock: MockModel | undefined;
let space: Awaited<ReturnType<typeof tempDir>> | undefined;
let close: (() => void) | undefined;
afterEach(async () => {
  close?.();
  await api?.close();
  await mock?.close();
  await space?.remove();
  api = mock = space = close = undefined;
});

const BETA = 'claude-code-20250219,oauth-2025-04-20';
/** Every model key the walls keep out: each known vendor's, and the CLI's own. */
const keysOf = (held: HeldApi) => credentialVariables([held.access]);
type Cli = 'claude' | 'codex' | 'droid';

/** What a proxy told: the calls it refused, and the model calls it metered. */
interface Told {
  refused: { call: string; why: string }[];
  metered: UsageEvent[];
}

async function proxyTo(cli: Cli, origin: string, env: Record<string, string>, metering?: ProxyMetering) {
  space = await tempDir('credential-proxy-');
  const socketPath = join(space.path, 'model.sock');
  const held = heldApi({ ...env, ...upstreamOf(cli, origin) }, (await realAdapter(cli)).walls.modelApi)!;
  const told: Told = { refused: [], metered: [] };
  const watch: ProxyWatch = {
    refused: (call, why) => told.refused.push({ call, why }),
    metered: (event) => told.metered.push(event),
    ...(metering ? { metering } : {}),
  };
  const server = credentialProxy(socketPath, held, watch);
  close = () => server.close();
  return { socketPath, held, told };
}

/** A proxy in front of an API that records each request's headers and answers `ok`. */
async function proxyFor(cli: Cli, env: Record<string, string>, seen: (IncomingHttpHeaders & { path?: string })[]) {
  api = await listen(
    (req, res) => {
      seen.push({ ...req.headers, path: `${req.method} ${req.url}` });
      res.end('ok');
    },
    { upgrade: (req, socket) => (seen.push(req.headers), socket.destroy()) },
  );
  return proxyTo(cli, api.origin, env);
}

function upstreamOf(cli: Cli, origin: string): Record<string, string> {
  return { claude: { ANTHROPIC_BASE_URL: origin }, codex: { OPENAI_BASE_URL: `${origin}/v1` }, droid: { FACTORY_API_BASE_URL: origin } }[cli];
}

function call(socketPath: string, path: string, headers: Record<string, string>, method = 'POST', body = '{}'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ socketPath, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    })
      .on('error', reject)
      .end(method === 'POST' ? body : undefined);
  });
}

describe('the credential proxy', () => {
  it('holds claude’s OAuth token outside: the CLI sends a bearer placeholder with its oauth beta, the API gets the token', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const { socketPath, held } = await proxyFor('claude', { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-real' }, seen);
    const inside = withoutCredentials(
      { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-real', OPENAI_API_KEY: 'sk-other' },
      held,
      'http://127.0.0.1:3129',
      keysOf(held),
    );
    expect(inside.env).toEqual({ CLAUDE_CODE_OAUTH_TOKEN: PLACEHOLDER_KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:3129' });
    expect((await call(socketPath, '/v1/messages?beta=true', { authorization: `Bearer ${PLACEHOLDER_KEY}`, 'anthropic-beta': BETA })).status).toBe(200);
    // An answer it can read: never a compressed one, whatever the CLI (or the agent) asked for.
    expect(seen[0]).toMatchObject({ authorization: 'Bearer sk-ant-oat01-real', 'anthropic-beta': BETA, 'accept-encoding': 'identity' });
  });

  it('of two credentials sent in one header holds the one claude prefers and leaves the other out', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const env = { ANTHROPIC_AUTH_TOKEN: 'gateway-token', CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-real' };
    const { socketPath, held } = await proxyFor('claude', env, seen);
    expect(withoutCredentials(env, held, 'http://127.0.0.1:3129', keysOf(held)).env).toEqual({
      ANTHROPIC_AUTH_TOKEN: PLACEHOLDER_KEY,
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:3129',
    });
    await call(socketPath, '/v1/messages', { authorization: `Bearer ${PLACEHOLDER_KEY}` });
    expect(seen[0]!.authorization).toBe('Bearer gateway-token');
  });

  it('refuses, with a 403 saying why, every call its CLI’s adapter does not list, and tells each: the API never sees it', async () => {
    const seen: (IncomingHttpHeaders & { path?: string })[] = [];
    const { socketPath, told } = await proxyFor('claude', { ANTHROPIC_API_KEY: 'sk-ant-real' }, seen);
    const refused = [
      ['GET', '/v1/anything'],
      ['POST', '/v1/files'],
      ['POST', '/v1/messages/batches'],
      ['DELETE', '/v1/messages'],
      ['POST', '/v1/messages/../files'],
      ['POST', '/v1/messages/%2e%2e/files'],
      ['POST', '/v1/messages%2fbatches'],
      ['POST', '//v1/messages'],
      ['POST', '/api/oauth/claude_cli/create_api_key'],
    ] as const;
    for (const [method, path] of refused) {
      const answer = await call(socketPath, path, { 'x-api-key': PLACEHOLDER_KEY }, method).catch((e) => {
        throw new Error(`${method} ${path}: ${e}`);
      });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { type: 'refused_by_bridge', message: expect.stringContaining('walls.modelApi.routes') } });
    }
    expect(told.refused.map((refusal) => refusal.call)).toEqual(refused.map(([method, path]) => `${method} ${path}`));
    expect(seen).toEqual([]);
    // What claude calls goes through: its model calls, counting tokens, the models, its probe.
    for (const [method, path] of [
      ['POST', '/v1/messages?beta=true'],
      ['POST', '/v1/messages/count_tokens?beta=true'],
      ['GET', '/v1/models?limit=1000'],
      ['HEAD', '/api/hello'],
    ] as const)
      expect((await call(socketPath, path, { 'x-api-key': PLACEHOLDER_KEY }, method)).status).toBe(200);
    expect(seen.map((headers) => [headers.path, headers['x-api-key']])).toEqual([
      ['POST /v1/messages?beta=true', 'sk-ant-real'],
      ['POST /v1/messages/count_tokens?beta=true', 'sk-ant-real'],
      ['GET /v1/models?limit=1000', 'sk-ant-real'],
      ['HEAD /api/hello', 'sk-ant-real'],
    ]);
  });

  it('answers codex’s WebSocket upgrade 426 itself, never sending it on (its frames could not be metered), so codex goes on over HTTP', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const { socketPath, held } = await proxyFor('codex', { CODEX_API_KEY: 'sk-real' }, seen);
    const inside = withoutCredentials({ CODEX_API_KEY: 'sk-real', ANTHROPIC_API_KEY: 'sk-ant' }, held, 'http://127.0.0.1:3129', keysOf(held));
    expect(inside).toEqual({ env: { CODEX_API_KEY: PLACEHOLDER_KEY }, args: ['-c', 'openai_base_url="http://127.0.0.1:3129"'] });
    const answer = await new Promise<number>((resolve, reject) => {
      request({ socketPath, path: '/responses', headers: { authorization: `Bearer ${PLACEHOLDER_KEY}`, connection: 'Upgrade', upgrade: 'websocket' } })
        .on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0)))
        .on('upgrade', () => reject(new Error('upgraded')))
        .on('error', reject)
        .end();
    });
    expect(answer).toBe(426);
    expect(seen).toEqual([]);
    expect((await call(socketPath, '/responses', { authorization: `Bearer ${PLACEHOLDER_KEY}` })).status).toBe(200);
    expect(seen[0]).toMatchObject({ authorization: 'Bearer sk-real', path: 'POST /v1/responses' });
  });

  it('sends droid’s Factory key on the calls droid makes to Factory’s API, and on no other', async () => {
    const seen: (IncomingHttpHeaders & { path?: string })[] = [];
    const { socketPath, held } = await proxyFor('droid', { FACTORY_API_KEY: 'fk-real' }, seen);
    expect(withoutCredentials({ FACTORY_API_KEY: 'fk-real' }, held, 'http://127.0.0.1:3129', keysOf(held)).env).toEqual({
      FACTORY_API_KEY: PLACEHOLDER_KEY,
      FACTORY_API_BASE_URL: 'http://127.0.0.1:3129',
    });
    const headers = { authorization: `Bearer ${PLACEHOLDER_KEY}` };
    await call(socketPath, '/api/cli/whoami', headers, 'GET');
    await call(socketPath, '/api/sessions/create', headers);
    await call(socketPath, '/api/sessions/0c6b9a9e/message/create', headers);
    await call(socketPath, '/api/llm/o/v1/responses', headers);
    expect((await call(socketPath, '/api/service-accounts', headers)).status).toBe(403);
    expect(seen.map((h) => [h.path, h.authorization])).toEqual([
      ['GET /api/cli/whoami', 'Bearer fk-real'],
      ['POST /api/sessions/create', 'Bearer fk-real'],
      ['POST /api/sessions/0c6b9a9e/message/create', 'Bearer fk-real'],
      ['POST /api/llm/o/v1/responses', 'Bearer fk-real'],
    ]);
  });

  it('holds Copilot’s own key only where COPILOT_PROVIDER_BASE_URL names its API: with a GitHub login it has no API of its own to hold', async () => {
    const access = (await realAdapter('copilot')).walls.modelApi;
    expect(heldApi({ COPILOT_GITHUB_TOKEN: 'gh-token' }, access)).toBeUndefined();
    expect(heldApi({ COPILOT_PROVIDER_API_KEY: 'sk-own' }, access)).toBeUndefined();
    const held = heldApi({ COPILOT_PROVIDER_API_KEY: 'sk-own', COPILOT_PROVIDER_BASE_URL: 'https://models.example.com/v1' }, access)!;
    expect(held.upstream.href).toBe('https://models.example.com/v1');
    // Either way the key stays out of the walls: held, it is the placeholder; not held, it is gone.
    const inside = (env: Record<string, string>) => withoutCredentials(env, heldApi(env, access), 'http://127.0.0.1:3129', credentialVariables([access])).env;
    expect(inside({ COPILOT_PROVIDER_API_KEY: 'sk-own', COPILOT_PROVIDER_BASE_URL: 'https://models.example.com/v1' })).toEqual({
      COPILOT_PROVIDER_API_KEY: PLACEHOLDER_KEY,
      COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:3129',
    });
    expect(inside({ COPILOT_PROVIDER_API_KEY: 'sk-own' })).toEqual({});
  });

  it('holds OpenCode’s OpenAI-style key for the API OPENAI_BASE_URL names, which its provider reads as {env:…}', async () => {
    const access = (await realAdapters()).get('opencode')!.walls.modelApi;
    expect(heldApi({ OPENAI_API_KEY: 'sk-own' }, access)).toBeUndefined();
    const env = { OPENAI_API_KEY: 'sk-own', OPENAI_BASE_URL: 'https://models.example.com/v1' };
    const held = heldApi(env, access)!;
    expect(held.upstream.href).toBe('https://models.example.com/v1');
    expect(withoutCredentials(env, held, 'http://127.0.0.1:3129', credentialVariables([access])).env).toEqual({
      OPENAI_API_KEY: PLACEHOLDER_KEY,
      OPENAI_BASE_URL: 'http://127.0.0.1:3129',
    });
  });
});

describe('the credential proxy’s meter', () => {
  const prices = new PriceTable(
    { 'claude-opus-5-5': { input: 4, output: 20 }, 'claude-opus-4-1': { input: 15, output: 75 }, 'gpt-5.5': { input: 5, output: 30, cacheRead: 0.5 } },
    {},
    { anthropic: ['claude-'], openai: ['gpt-'] },
  );
  const anthropicBody = (model: string) => JSON.stringify({ model, stream: true, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
  const openAiBody = (model: string) => JSON.stringify({ model, stream: true, input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] });

  it('prices each model call from the API’s own answer: Anthropic’s stream, and OpenAI’s Responses stream', async () => {
    mock = await startMockModel({ script: () => ({ text: 'hello there' }) });
    const claude = await proxyTo('claude', mock.url, { ANTHROPIC_API_KEY: 'sk-ant-real' }, { prices });
    const answer = await call(
      claude.socketPath,
      '/v1/messages?beta=true',
      { 'x-api-key': PLACEHOLDER_KEY, 'content-type': 'application/json' },
      'POST',
      anthropicBody('claude-opus-5-5'),
    );
    expect(answer.body).toContain('message_stop');
    expect(claude.told.metered).toHaveLength(1);
    const [metered] = claude.told.metered;
    expect(metered).toMatchObject({ type: 'usage', model: 'claude-opus-5-5', messageId: expect.stringMatching(/^msg_/), usage: { inputTokens: 12 } });
    const { inputTokens, outputTokens } = metered!.usage;
    expect(outputTokens).toBeGreaterThan(1); // message_delta's total, over message_start's 1
    expect(metered!.proxy!.costUsd).toBeCloseTo((inputTokens * 4 + outputTokens * 20) / 1e6, 12);
    close?.();
    await space?.remove();

    const codex = await proxyTo('codex', mock.url, { CODEX_API_KEY: 'sk-real' }, { prices });
    await call(
      codex.socketPath,
      '/responses',
      { authorization: `Bearer ${PLACEHOLDER_KEY}`, 'content-type': 'application/json' },
      'POST',
      openAiBody('gpt-5.5'),
    );
    expect(codex.told.metered).toEqual([
      expect.objectContaining({
        model: 'gpt-5.5',
        messageId: expect.stringMatching(/^resp_/),
        usage: expect.objectContaining({ inputTokens: 12 }),
        proxy: { costUsd: expect.any(Number) },
      }),
    ]);
  });

  it('counts a model of no known price at the highest price of its provider', async () => {
    mock = await startMockModel({ script: () => ({ text: 'hello' }) });
    const { socketPath, told } = await proxyTo('claude', mock.url, { ANTHROPIC_API_KEY: 'sk-ant-real' }, { prices });
    await call(socketPath, '/v1/messages', { 'x-api-key': PLACEHOLDER_KEY, 'content-type': 'application/json' }, 'POST', anthropicBody('claude-unheard-of-9'));
    const [metered] = told.metered;
    const { inputTokens, outputTokens } = metered!.usage;
    // Opus 4.1's prices, the highest of the table's Anthropic models.
    expect(metered!.proxy).toEqual({ costUsd: expect.closeTo((inputTokens * 15 + outputTokens * 75) / 1e6, 12), highest: true });
  });

  it('refuses a call naming a model of no known price where people have daily budgets, with a sentence saying what to do', async () => {
    mock = await startMockModel({ script: () => ({ text: 'hello' }) });
    const refuseUnpriced = 'a daily budget per person is set (BRIDGE_PERSON_DAILY_BUDGET_USD)';
    const { socketPath, told } = await proxyTo('claude', mock.url, { ANTHROPIC_API_KEY: 'sk-ant-real' }, { prices, refuseUnpriced });
    const answer = await call(socketPath, '/v1/messages', { 'x-api-key': PLACEHOLDER_KEY }, 'POST', anthropicBody('claude-unheard-of-9'));
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error.message).toBe(
      'The model "claude-unheard-of-9" has no price in the price table, and a daily budget per person is set (BRIDGE_PERSON_DAILY_BUDGET_USD), so the bridge refuses work it cannot price: add the model to BRIDGE_DATA_DIR/prices.json ({"models": {"claude-unheard-of-9": {"input": …, "output": …}}}, dollars per million tokens), or use a model that has one.',
    );
    expect(told.refused).toHaveLength(1);
    expect(mock.requests).toEqual([]);
    // A priced model goes through, its body whole.
    const priced = await call(
      socketPath,
      '/v1/messages',
      { 'x-api-key': PLACEHOLDER_KEY, 'content-type': 'application/json' },
      'POST',
      anthropicBody('claude-opus-5-5'),
    );
    expect(priced.status).toBe(200);
    expect(mock.modelRequests).toHaveLength(1);
    expect(told.metered).toHaveLength(1);
  });
});
