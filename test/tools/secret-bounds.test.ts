import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { appPerTest, spawnFrom } from '../support/app-world.ts';
import { chat } from '../support/chats.ts';

// Each MCP secret works only for its own chat and run, and not once revoked: checked on the
// bridge's MCP endpoint over its HTTP transport, with the secrets the bridge gave its CLIs
// (read from their MCP config files, as another process of the same user could).
const t = appPerTest({ env: { BRIDGE_ALLOWED_USERS: '1', BRIDGE_PERMISSION_MODE: 'bypass' }, subagents: { maxDepth: 3 } });
const A = -1;
const B = -2;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
});

const say = (chatId: number, text: string) => t.app.bot.handleMessage({ address: chat(chatId), user: { id: '1', name: 'Ada' }, text });

/** The bridge's secret in the MCP config of the `nth` CLI invocation with this prompt, once it has started. */
async function secretOf(prompt: string, nth = 0): Promise<{ url: string; token: string }> {
  let file: string | undefined;
  await expect
    .poll(async () => {
      const invocation = (await t.world.invocations()).filter((seen) => seen.prompt === prompt)[nth];
      file = invocation?.argv[invocation.argv.indexOf('--mcp-config') + 1];
      return file;
    })
    .toBeDefined();
  const server = (JSON.parse(await readFile(file!, 'utf8')) as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> }).mcpServers
    .bridge!;
  return { url: server.url, token: /^Bearer (\S+)$/.exec(server.headers.Authorization ?? server.headers.authorization ?? '')![1]! };
}

async function connect(secret: { url: string; token: string }): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(secret.url), { requestInit: { headers: { authorization: `Bearer ${secret.token}` } } }));
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { text: (result.content as { text: string }[])[0]!.text, isError: result.isError === true };
}

/** What the endpoint answers a bare request with this secret: 401 once it is revoked. */
async function status(secret: { url: string; token: string }): Promise<number> {
  const response = await fetch(secret.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await response.body?.cancel();
  return response.status;
}

const running = (runId: string) => t.app.subagents.registry.get(runId)?.status;

describe("a chat's MCP secret", () => {
  it("acts in its own chat only: another chat's runs and schedules are out of its reach", async () => {
    await say(A, 'say:in A');
    const secretA = await secretOf('say:in A');
    const theirs = await spawnFrom(t.app, t.world, 'hang', B);
    if (!theirs.ok) throw new Error(theirs.error);
    const client = await connect(secretA);

    for (const id of [theirs.run.runId, '#1', '1']) {
      expect(await call(client, 'subagent_status', { id })).toMatchObject({ isError: true, text: expect.stringMatching(/^No run/) });
      expect(await call(client, 'subagent_log', { id })).toMatchObject({ isError: true });
      expect(await call(client, 'stop_subagent', { id })).toMatchObject({ isError: true });
    }
    expect(running(theirs.run.runId)).toBe('running');
    expect((await call(client, 'list_subagents', {})).text).toMatch(/^No subagent runs/);

    expect((await call(client, 'spawn_subagent', { task: 'say:spawned by A' })).isError).toBe(false);
    expect(t.app.subagents.registry.forChat('telegram:-1').map((run) => run.task)).toEqual(['say:spawned by A']);
    expect(t.app.subagents.registry.forChat('telegram:-2')).toHaveLength(1);

    expect((await call(client, 'schedule', { when: 'in 20m', prompt: 'later, in A' })).isError).toBe(false);
    await say(B, '/schedules');
    await say(A, '/schedules');
    expect(t.out.textsTo(B).join('\n')).not.toContain('later, in A');
    expect(t.out.textsTo(A).join('\n')).toContain('later, in A');
  });

  it('stops working when its session is closed (/new), at once, not at the next turn', async () => {
    await say(A, 'say:first session');
    const secret = await secretOf('say:first session');
    const client = await connect(secret);
    expect((await call(client, 'list_subagents', {})).isError).toBe(false);
    // /new waits for the turn to end (it is refused while the agent works).
    await expect.poll(() => t.app.bot.chats.get(chat(A)).busy).toBe(false);
    await say(A, '/new');
    expect(t.out.textsTo(A).at(-1)).toMatch(/^🆕 Fresh/);
    expect(await status(secret)).toBe(401);
    await expect(call(client, 'list_subagents', {})).rejects.toThrow();
  });

  it("stops working when the chat's mode changes: a secret given in bypass never acts in a chat that now asks", async () => {
    await say(A, 'say:in bypass');
    const secret = await secretOf('say:in bypass');
    await expect.poll(() => t.app.bot.chats.get(chat(A)).busy).toBe(false);
    expect(await status(secret)).toBe(200);
    await say(A, '/permissions ask');
    expect(t.out.textsTo(A).at(-1)).toMatch(/^🔐 Permissions: ask/);
    expect(await status(secret)).toBe(401);
  });
});

describe("a run's MCP secret", () => {
  it('reaches the runs it started and theirs, not its siblings or its parent, and stops working when the run ends', async () => {
    const sibling = await spawnFrom(t.app, t.world, 'hang', A);
    if (!sibling.ok) throw new Error(sibling.error);
    await secretOf('hang', 0);
    const own = await spawnFrom(t.app, t.world, 'hang', A);
    if (!own.ok) throw new Error(own.error);
    const secret = await secretOf('hang', 1);
    const client = await connect(secret);

    expect(await call(client, 'stop_subagent', { id: sibling.run.runId })).toMatchObject({ isError: true, text: expect.stringMatching(/^No run .* of yours/) });
    expect(await call(client, 'subagent_status', { id: `#${sibling.run.number}` })).toMatchObject({ isError: true });
    expect(running(sibling.run.runId)).toBe('running');
    expect(await call(client, 'stop_subagent', { id: own.run.runId })).toMatchObject({ isError: true });

    expect((await call(client, 'spawn_subagent', { task: 'hang', label: 'Child' })).isError).toBe(false);
    const child = t.app.subagents.registry.forChat('telegram:-1').find((run) => run.label === 'Child')!;
    expect(child.requester).toMatchObject({ kind: 'agent', runId: own.run.runId });
    const listed = (await call(client, 'list_subagents', {})).text;
    expect(listed).toContain('Child');
    expect(listed).not.toContain(`#${sibling.run.number} `);
    expect(await call(client, 'stop_subagent', { id: child.runId })).toEqual({ isError: false, text: `Stopped #${child.number} Child.` });

    await t.app.subagents.registry.stop(own.run.runId, 'Ada');
    expect(await status(secret)).toBe(401);
    await expect(call(client, 'list_subagents', {})).rejects.toThrow();
    expect(running(sibling.run.runId)).toBe('running');
  });
});
