import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentLibrary } from '../../src/engine/agents/library.ts';
import { AgentToggles } from '../../src/engine/agents/toggles.ts';
import { SessionTools } from '../../src/work/tools/session-tools.ts';
import type { Settings } from '../../src/kernel/settings/bridge-manifest.ts';
import type { App } from '../../src/app/create-app.ts';
import type { Subagents } from '../../src/work/subagents/subagents.ts';
import type { McpEndpoint, Grant } from '../../src/work/tools/mcp-endpoint.ts';
import type { ToolScope } from '../../src/work/tools/scope.ts';
import { toolsGranted } from '../../src/work/tools/index.ts';
import type { Orchestrator } from '../../src/work/orchestration/orchestrator.ts';
import { openApp } from '../support/app-world.ts';
import { fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';
import { testConfig } from '../support/test-config.ts';
import { chat } from '../support/chats.ts';

let world: FakeCliWorld;
let app: App;
let subagents: Subagents;
let endpoint: McpEndpoint;
let clients: Client[];
let orchestrator: Orchestrator;
let out: RecordingOutbound;

async function open(limits: Partial<Settings['subagents']> = {}) {
  out = new RecordingOutbound();
  app = await openApp(world, out, { subagents: limits });
  ({ subagents, endpoint, orchestrator } = app);
  return testConfig({ dataDir: world.dir, workdir: world.dir, env: world.env });
}

/** The "started by the agent" notices the chat was shown, by run number. */
const notices = () =>
  out
    .textsTo(-1)
    .flatMap((text) => /^🚀 #(\d+) started by the agent/.exec(text)?.[1] ?? [])
    .map(Number);

const scope = (chatId: number, depth = 0): ToolScope => ({
  address: chat(chatId),
  depth,
  kind: depth ? 'subagent' : 'main',
  sessionId: () => 'main-session-id',
  tools: toolsGranted('delegate'),
});

async function connect(grant: Grant): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(grant.url), { requestInit: { headers: { authorization: `Bearer ${grant.token}` } } }));
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { text: (result.content as { text: string }[])[0]!.text, isError: result.isError === true };
}

beforeEach(async () => {
  world = await fakeCliWorld();
  clients = [];
});
afterEach(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await app.shutdown();
  await world.cleanup();
});

describe('the MCP endpoint', () => {
  it('refuses requests without a valid secret, before speaking MCP', async () => {
    await open();
    const grant = endpoint.grant(scope(-1));
    // no secret, a wrong one, or the right one where logs and `ps` would show it (the URL)
    for (const [url, authorization] of [
      [grant.url, undefined],
      [grant.url, 'Bearer not-the-secret'],
      [`${grant.url}/${grant.token}`, undefined],
    ] as const) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(401);
    }
    grant.revoke();
    await expect(connect(grant)).rejects.toThrow();
  });

  it('accepts the secret as a bearer token, and lists the tools of manifest.json', async () => {
    const config = await open();
    const grant: Grant = endpoint.grant(scope(-1));
    const client = await connect(grant);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['spawn_subagent', 'list_subagents', 'subagent_status', 'subagent_log', 'create_orchestration', 'stop_subagent']);
    expect(tools[0]!.inputSchema).toEqual(config.manifest.tools[0]!.inputSchema);
  });

  it("names the agents in spawn_subagent's description for a CLI with no Task tool to hand them to", async () => {
    const config = await open();
    const folder = join(world.dir, '.bridge', 'agents', 'reviewer');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'agent.json'), JSON.stringify({ description: 'Reviews diffs' }));
    await writeFile(join(folder, 'prompt.md'), 'You review.\n');
    const agents = new AgentLibrary({ dataDir: world.dir, knownClis: ['fake'], toggles: await AgentToggles.open(world.dir), trusts: async () => true });
    const tools = new SessionTools({ endpoint, config, maxDepth: 2, toolTimeoutMs: 60_000, agents });
    const adapter = config.adapters.get('fake')!;
    const described = async (withTaskTool: boolean) => {
      const session = tools.forMainSession({
        address: chat(-5),
        adapter: { ...adapter, options: { ...adapter.options, ...(withTaskTool ? { agents: ['--agents', '{agentsFile}'] } : {}) } },
        sessionId: () => undefined,
        mode: 'bypass',
        workdir: world.dir,
      });
      const client = await connect({ url: session.mcp!.url, token: session.mcp!.token, revoke: () => {} });
      return (await client.listTools()).tools.find((t) => t.name === 'spawn_subagent')!.description!;
    };
    expect(await described(false)).toMatch(
      /\n\nAgents you can name in "agent" \(each runs with its own prompt, tools and model\): reviewer \(Reviews diffs\)\.$/,
    );
    await agents.setEnabled(world.dir, 'reviewer', false);
    expect(await described(false)).toBe(config.manifest.tools[0]!.description); // a disabled agent is not offered
    await agents.setEnabled(world.dir, 'reviewer', true);
    expect(await described(true)).toBe(config.manifest.tools[0]!.description); // claude gets them in its Task tool instead
  });

  it("spawn_subagent returns at once with the run id, in the caller's chat, and the chat is told", async () => {
    await open();
    const client = await connect(endpoint.grant(scope(-1)));
    const started = Date.now();
    const result = await call(client, 'spawn_subagent', { task: 'sleep:2 say:slow', label: 'Slow one' });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(
      /^Subagent #1 started: id [\w-]{10}, label "Slow one", CLI fake\. Its result will arrive by itself as a new message in this conversation/,
    );
    const run = subagents.registry.find('telegram:-1', '#1')!;
    expect(run).toMatchObject({
      chat: chat(-1),
      depth: 1,
      requester: { kind: 'agent', chatKey: 'telegram:-1', sessionId: 'main-session-id' },
      requesterSessionId: 'main-session-id',
    });
    await expect.poll(notices).toEqual([1]);
    const list = await call(client, 'list_subagents', {});
    expect(list.text).toMatch(/#1 Slow one · ⚙️ running · fake/);
    const status = await call(client, 'subagent_status', { id: '1' });
    expect(status.text).toContain(`\nrunId: ${run.runId}\n`);
    const stop = await call(client, 'stop_subagent', { id: run.runId });
    expect(stop).toEqual({ text: 'Stopped #1 Slow one.', isError: false });
    expect(await call(client, 'stop_subagent', { id: '#1' })).toEqual({ text: '#1 has already ended (stopped).', isError: true });
  });

  it('a main session that asks the chat starts runs that ask too', async () => {
    await open();
    const asker = { id: 'main-telegram:-1', chatKey: 'telegram:-1', address: chat(-1), title: 'fake', lifetime: 'session' as const };
    const client = await connect(endpoint.grant({ ...scope(-1), tools: new Set([...toolsGranted('delegate'), 'approve_tool']), asker: () => asker }));
    expect((await call(client, 'spawn_subagent', { task: 'say:careful' })).isError).toBe(false);
    expect(subagents.registry.find('telegram:-1', '#1')!.policy).toMatchObject({ approvals: true });
    await expect.poll(async () => (await world.invocations()).find((c) => c.prompt === 'say:careful')?.argv).toBeDefined();
    const argv = (await world.invocations()).find((c) => c.prompt === 'say:careful')!.argv;
    expect(argv).toContain('--permission-prompt-tool');
    expect(argv).not.toContain('--dangerously-skip-permissions');
  });

  it('schedule is offered to a main session only, asks first in a session that asks, and keeps to its limits', async () => {
    world.env.BRIDGE_ALLOWED_USERS = '111'; // who answers the question below
    const config = await open();
    const tools = new SessionTools({
      endpoint,
      config,
      maxDepth: 2,
      toolTimeoutMs: 60_000,
      agents: new AgentLibrary({ dataDir: world.dir, knownClis: ['fake'], toggles: await AgentToggles.open(world.dir), trusts: async () => true }),
    });
    const adapter = config.adapters.get('fake')!;
    const main = tools.forMainSession({ address: chat(-7), adapter, sessionId: () => undefined, mode: 'bypass', workdir: world.dir });
    const client = await connect({ url: main.mcp!.url, token: main.mcp!.token, revoke: () => {} });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('schedule');
    expect(tools.forMainSession({ address: chat(-8), adapter, sessionId: () => undefined, mode: 'safe', workdir: world.dir })).toEqual({});
    const sub = await connect(endpoint.grant({ ...scope(-7, 1), tools: toolsGranted('everyone') }));
    expect((await sub.listTools()).tools.map((t) => t.name)).not.toContain('schedule');

    const made = await call(client, 'schedule', { when: 'in 20m', prompt: 'look again' });
    expect(made).toMatchObject({ isError: false, text: expect.stringMatching(/^Scheduled #1 “look again”: once, .* by the agent\./) });
    expect(await call(client, 'schedule', { when: 'in 31d', prompt: 'much later' })).toEqual({ isError: true, text: 'Not scheduled: at most 30 days ahead.' });
    expect((await call(client, 'schedule', { when: 'every 5m', prompt: 'x' })).text).toMatch(/^Not scheduled: "every" is not a time/);

    // In a session that asks, the chat is asked first; a denial schedules nothing.
    const asker = { id: 'main-telegram:-9', chatKey: 'telegram:-9', address: chat(-9), title: 'fake', lifetime: 'session' as const };
    const asking = await connect(endpoint.grant({ ...scope(-9), tools: toolsGranted('main'), asker: () => asker }));
    const pending = call(asking, 'schedule', { when: 'in 1h', prompt: 'asked first' });
    // The question is in the chat: denied as a person would.
    await expect.poll(() => out.sent.some((m) => m.to.chat === '-9' && m.buttons.flat().some((b) => b.text === '⛔ Deny'))).toBe(true);
    const question = out.sent.find((m) => m.to.chat === '-9' && m.buttons.flat().some((b) => b.text === '⛔ Deny'))!;
    const deny = question.buttons.flat().find((b) => b.text === '⛔ Deny')!;
    await app.host.handleButton({ address: chat(-9), user: { id: '111', name: 'Ada' }, data: deny.data, messageId: question.messageId });
    expect((await pending).text).toMatch(/^Not scheduled: Denied by Ada/);
  });

  it('answers bad arguments, unknown CLIs, limits and unknown runs with tool errors', async () => {
    await open({ maxConcurrent: 1, maxQueued: 0 });
    const client = await connect(endpoint.grant(scope(-1)));
    // Checked against the tool's zod schema before it runs: the agent reads what was wrong, and where.
    const invalid = (detail: string) => ({ isError: true, text: expect.stringContaining(`Invalid arguments for tool spawn_subagent: ${detail}`) as unknown });
    expect(await call(client, 'spawn_subagent', {})).toEqual(invalid('Invalid input: expected string, received undefined at task'));
    expect(await call(client, 'spawn_subagent', { task: 'x', colour: 'red' })).toEqual(invalid('Unrecognized key: "colour"'));
    expect(await call(client, 'spawn_subagent', { task: 'x', timeoutSeconds: 'soon' })).toEqual(
      invalid('Invalid input: expected number, received string at timeoutSeconds'),
    );
    expect(await call(client, 'spawn_subagent', { task: 'x', timeoutSeconds: 5 })).toEqual(invalid('Too small: expected number to be >=10 at timeoutSeconds'));
    expect(await call(client, 'approve_tool', { tool_name: 'Bash', input: {} })).toEqual({
      isError: true,
      text: expect.stringContaining('Tool approve_tool not found') as unknown,
    });
    expect(await call(client, 'spawn_subagent', { task: 'x', cli: 'cobol' })).toEqual({ isError: true, text: 'Unknown CLI "cobol". Available: fake.' });
    expect(await call(client, 'spawn_subagent', { task: 'x', agent: 'reviewer' })).toEqual({
      isError: true,
      text: 'Unknown agent "reviewer". No agents are defined (see /agents).',
    });
    expect((await call(client, 'spawn_subagent', { task: 'hang' })).isError).toBe(false);
    const refused = await call(client, 'spawn_subagent', { task: 'one more' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^Limit reached: 1 running and 0 queued in this chat/);
    expect(await call(client, 'subagent_log', { id: '#7' })).toEqual({ isError: true, text: 'No run "#7" in this chat. list_subagents shows them.' });
  });

  it('refuses a spawn from too deep with a clear tool error', async () => {
    await open({ maxDepth: 1 });
    const client = await connect(endpoint.grant(scope(-1, 1)));
    const result = await call(client, 'spawn_subagent', { task: 'nested' });
    expect(result).toEqual({ isError: true, text: 'Subagents may be nested 1 deep at most, and this one would be at depth 2. Do the work yourself.' });
    expect(subagents.registry.forChat('telegram:-1')).toEqual([]);
  });

  it("gives a subagent's spawn no more than the subagent: its tools, its approvals, one level deeper", async () => {
    await open({ maxDepth: 2 });
    const parent = await app.subagents.spawner.spawn(
      { task: 'hang', allow: ['Read', 'Grep'], ask: true },
      { address: chat(-1), requester: { kind: 'user', userId: '1' }, cwd: world.dir, cli: 'fake', depth: 0 },
    );
    if (!parent.ok) throw new Error(parent.error);
    const client = await connect(endpoint.grant({ ...scope(-1, 1), runId: parent.run.runId }));
    expect((await call(client, 'spawn_subagent', { task: 'hang', label: 'Child' })).isError).toBe(false);
    expect(subagents.registry.find('telegram:-1', '#2')).toMatchObject({
      label: 'Child',
      depth: 2,
      policy: { allowedTools: ['Read', 'Grep'], approvals: true },
    });
  });

  it("sees only its own chat's runs", async () => {
    await open();
    const mine = await connect(endpoint.grant(scope(-1)));
    const theirs = await connect(endpoint.grant(scope(-2)));
    await call(mine, 'spawn_subagent', { task: 'say:mine' });
    expect((await call(theirs, 'list_subagents', {})).text).toMatch(/^No subagent runs in this chat/);
    expect((await call(theirs, 'subagent_status', { id: '1' })).isError).toBe(true);
  });

  it('create_orchestration validates the plan first and starts it at once', async () => {
    await open();
    const client = await connect(endpoint.grant(scope(-1)));
    const cyclic = await call(client, 'create_orchestration', {
      plan: {
        strategy: 'dag',
        steps: [
          { id: 'a', prompt: 'x', depends_on: ['b'] },
          { id: 'b', prompt: 'y', depends_on: ['a'] },
        ],
      },
    });
    expect(cyclic).toEqual({ isError: true, text: 'The plan was not started: cycle: a → b → a' });
    const started = await call(client, 'create_orchestration', { plan: 'one: say:1\ntwo <- one: say:2' });
    expect(started.isError).toBe(false);
    expect(started.text).toMatch(
      /^Orchestration #1 started: id [\w-]{10}, 2 steps \(dag\)\. Progress is shown in the chat\. When it ends, its outcome will arrive by itself/,
    );
    await expect.poll(() => subagents.registry.forChat('telegram:-1').length).toBe(1);
    expect(subagents.registry.forChat('telegram:-1')[0]!.orchestration).toMatchObject({ step: 'one' });
    // let the plan finish, announcement and all, before its store goes away
    await expect.poll(() => orchestrator.forChat('telegram:-1')[0]?.delivery?.chat, { timeout: 15_000 }).toBe('sent');
    expect(orchestrator.forChat('telegram:-1')[0]!.status).toBe('completed');
  });
});
