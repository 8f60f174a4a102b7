import { request, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialProxy, heldApi, withoutCredentials } from '../../src/sandbox/credential-proxy.ts';
import { PLACEHOLDER_KEY } from '../../src/sandbox/model-api-access.ts';
import { tempDir } from '../support/bridge-process.ts';
import { listen, type RunningServer } from '../support/loopback-server.ts';
import { realAdapter } from '../support/real-adapters.ts';

// The credential proxy per CLI, on its own (no walls needed): what the CLI inside holds, what
// the API gets, and a WebSocket upgrade carried through with the real credential.
let api: RunningServer | undefined;
let space: Awaited<ReturnType<typeof tempDir>> | undefined;
let close: (() => void) | undefined;
afterEach(async () => {
  close?.();
  await api?.close();
  await space?.remove();
  api = space = close = undefined;
});

const BETA = 'claude-code-20250219,oauth-2025-04-20';

async function proxyFor(cli: 'claude' | 'codex' | 'droid', env: Record<string, string>, seen: IncomingHttpHeaders[], upgrade?: (socket: Socket) => void) {
  api = await listen(
    (req, res) => {
      seen.push(req.headers);
      res.end('ok');
    },
    {
      upgrade: (req, socket) => {
        seen.push(req.headers);
        upgrade?.(socket);
      },
    },
  );
  space = await tempDir('credential-proxy-');
  const socketPath = join(space.path, 'model.sock');
  const held = heldApi({ ...env, ...upstreamOf(cli, api.origin) }, (await realAdapter(cli)).walls.modelApi)!;
  const server = credentialProxy(socketPath, held);
  close = () => server.close();
  return { socketPath, held };
}

function upstreamOf(cli: 'claude' | 'codex' | 'droid', origin: string): Record<string, string> {
  return { claude: { ANTHROPIC_BASE_URL: origin }, codex: { OPENAI_BASE_URL: `${origin}/v1` }, droid: { FACTORY_API_BASE_URL: origin } }[cli];
}

function call(socketPath: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ socketPath, path, method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end('{}');
  });
}

describe('the credential proxy', () => {
  it('holds claude’s OAuth token outside: the CLI sends a bearer placeholder with its oauth beta, the API gets the token', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const { socketPath, held } = await proxyFor('claude', { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-real' }, seen);
    const inside = withoutCredentials({ CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-real', OPENAI_API_KEY: 'sk-other' }, held, 'http://127.0.0.1:3129');
    expect(inside.env).toEqual({ CLAUDE_CODE_OAUTH_TOKEN: PLACEHOLDER_KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:3129' });
    expect(await call(socketPath, '/v1/messages?beta=true', { authorization: `Bearer ${PLACEHOLDER_KEY}`, 'anthropic-beta': BETA })).toBe(200);
    expect(seen[0]).toMatchObject({ authorization: 'Bearer sk-ant-oat01-real', 'anthropic-beta': BETA });
  });

  it('of two credentials sent in one header holds the one claude prefers and leaves the other out', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const env = { ANTHROPIC_AUTH_TOKEN: 'gateway-token', CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-real' };
    const { socketPath, held } = await proxyFor('claude', env, seen);
    expect(withoutCredentials(env, held, 'http://127.0.0.1:3129').env).toEqual({
      ANTHROPIC_AUTH_TOKEN: PLACEHOLDER_KEY,
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:3129',
    });
    await call(socketPath, '/v1/messages', { authorization: `Bearer ${PLACEHOLDER_KEY}` });
    expect(seen[0]!.authorization).toBe('Bearer gateway-token');
  });

  it('points codex at the proxy by its arguments, and carries its WebSocket upgrade through with the real key', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const { socketPath, held } = await proxyFor('codex', { CODEX_API_KEY: 'sk-real' }, seen, (socket) => {
      socket.write('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n\r\n');
      socket.on('data', (data) => socket.write(`echo ${String(data)}`));
    });
    const inside = withoutCredentials({ CODEX_API_KEY: 'sk-real', ANTHROPIC_API_KEY: 'sk-ant' }, held, 'http://127.0.0.1:3129');
    expect(inside).toEqual({ env: { CODEX_API_KEY: PLACEHOLDER_KEY }, args: ['-c', 'openai_base_url="http://127.0.0.1:3129"'] });
    const echoed = await new Promise<string>((resolve, reject) => {
      request({ socketPath, path: '/responses', headers: { authorization: `Bearer ${PLACEHOLDER_KEY}`, connection: 'Upgrade', upgrade: 'websocket' } })
        .on('upgrade', (res, socket) => {
          expect(res.statusCode).toBe(101);
          socket.once('data', (data) => {
            resolve(String(data));
            socket.destroy();
          });
          socket.write('frame');
        })
        .on('response', (res) => reject(new Error(`no upgrade: ${res.statusCode}`)))
        .on('error', reject)
        .end();
    });
    expect(echoed).toBe('echo frame');
    expect(seen[0]).toMatchObject({ authorization: 'Bearer sk-real', upgrade: 'websocket' });
  });

  it('gives codex a refused upgrade back as the API answered it, so it falls back to HTTP at once', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const { socketPath } = await proxyFor('codex', { CODEX_API_KEY: 'sk-real' }, seen, (socket) =>
      socket.end('HTTP/1.1 426 Upgrade Required\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n4\r\nnope\r\n0\r\n\r\n'),
    );
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      request({ socketPath, path: '/responses', headers: { authorization: `Bearer ${PLACEHOLDER_KEY}`, connection: 'Upgrade', upgrade: 'websocket' } })
        .on('response', (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += String(chunk)));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on('upgrade', () => reject(new Error('upgraded')))
        .on('error', reject)
        .end();
    });
    expect(answer).toEqual({ status: 426, body: 'nope' });
  });

  it('sends droid’s Factory key on each call to Factory’s API, whatever its path', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const { socketPath, held } = await proxyFor('droid', { FACTORY_API_KEY: 'fk-real' }, seen);
    expect(withoutCredentials({ FACTORY_API_KEY: 'fk-real' }, held, 'http://127.0.0.1:3129').env).toEqual({
      FACTORY_API_KEY: PLACEHOLDER_KEY,
      FACTORY_API_BASE_URL: 'http://127.0.0.1:3129',
    });
    for (const path of ['/api/cli/whoami', '/api/sessions/create', '/api/llm/o/v1/responses'])
      await call(socketPath, path, { authorization: `Bearer ${PLACEHOLDER_KEY}` });
    expect(seen.map((headers) => headers.authorization)).toEqual(['Bearer fk-real', 'Bearer fk-real', 'Bearer fk-real']);
  });
});
