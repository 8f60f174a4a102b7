import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpEndpoint } from '../../src/work/tools/mcp-endpoint.ts';
import { MCP_RELAY_SCRIPT } from '../../src/engine/session/mcp-stdio-relay.ts';
import { REFUSING_PORT } from '../support/free-port.ts';

// The bridge's MCP relay as an agent runs it (the build's, by plain Node), when it cannot do
// its work: each way ends in a line on stderr and a non-zero exit, never a silent hang.

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};

/** The relay run with `args` and `env`, sent one `initialize`: its answer on stdout, its stderr, its exit code. */
function relay(args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const child = spawn(process.execPath, [MCP_RELAY_SCRIPT, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
  return new Promise((resolve) => child.on('close', (code) => resolve({ stdout, stderr, code })));
}

describe('the MCP relay, run by an agent without MCP over http', () => {
  let endpoint: McpEndpoint;
  beforeAll(async () => {
    endpoint = await McpEndpoint.listen({ tools: [], deps: () => ({}) as never });
  });
  afterAll(() => endpoint?.close());

  it('says what it needs, and exits 64, when started without the endpoint or without the secret', async () => {
    const noUrl = await relay([], { JSONL_BRIDGE_MCP_TOKEN: 'secret' });
    expect(noUrl.code).toBe(64);
    expect(noUrl.stderr).toMatch(/^jsonl-bridge mcp relay: needs the bridge's MCP endpoint as its argument/);
    const noSecret = await relay(['http://127.0.0.1:1/mcp'], {});
    expect(noSecret.code).toBe(64);
    expect(noSecret.stderr).toMatch(/needs the session's secret in JSONL_BRIDGE_MCP_TOKEN/);
  });

  it('answers the agent’s request with an error, says on stderr that it cannot reach the bridge, and exits 1', async () => {
    const url = `http://127.0.0.1:${REFUSING_PORT}/mcp`;
    const { stdout, stderr, code } = await relay([url], { JSONL_BRIDGE_MCP_TOKEN: 'secret' });
    expect(code).toBe(1);
    expect(stderr).toContain(`jsonl-bridge mcp relay: cannot reach the bridge's MCP endpoint at ${url}: fetch failed`);
    expect(JSON.parse(stdout)).toMatchObject({ id: 1, error: { message: expect.stringContaining('cannot reach the bridge') } });
  });

  it('says so when the bridge refuses its secret, and exits 1', async () => {
    const url = endpoint.grant({ address: { transport: 'telegram', chat: '1' }, depth: 0, sessionId: () => undefined, kind: 'main', tools: new Set() }).url;
    const { stderr, code } = await relay([url], { JSONL_BRIDGE_MCP_TOKEN: 'not-the-secret' });
    expect(code).toBe(1);
    expect(stderr).toContain(`the bridge's MCP endpoint at ${url} refused the session's secret`);
    expect(stderr).not.toContain('not-the-secret');
  });
});
