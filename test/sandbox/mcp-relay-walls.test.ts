import { chmod, chown, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runAgentsAs } from '../../src/engine/process/agent-user.ts';
import { decideSandbox } from '../../src/engine/sandbox/sandbox-decision.ts';
import { enclose, lowerWalls, raiseWalls } from '../../src/engine/sandbox/walls.ts';
import type { WallScope } from '../../src/engine/sandbox/wall-scope.ts';
import { MCP_RELAY_SCRIPT, mcpOverStdio } from '../../src/engine/session/mcp-stdio-relay.ts';
import { McpEndpoint } from '../../src/work/tools/mcp-endpoint.ts';
import { defineTool } from '../../src/work/tools/tool.ts';
import { tempDir } from '../support/bridge-process.ts';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { cannotWall } from './walls-support.ts';

// The bridge's MCP relay where an agent in walls starts it: inside them, as the agent's user,
// with the walls an ACP agent's process gets (the relay read-only, the endpoint forwarded).
const cannot = cannotSwitchUser() ?? cannotWall();

const echo = defineTool({
  name: 'echo',
  description: 'Says its text back.',
  grant: 'everyone',
  input: z.strictObject({ text: z.string() }),
  run: async ({ text }) => ({ text: `echo: ${text}`, isError: false }),
});

describe.skipIf(cannot)(`the MCP relay in an agent's walls (${cannot ?? 'bubblewrap as ' + AGENT_USER})`, () => {
  let space: Awaited<ReturnType<typeof tempDir>>;
  let endpoint: McpEndpoint;
  let work: string;
  let ids: { uid: number; gid: number };

  beforeAll(async () => {
    ids = agentIds()!;
    const user = { name: AGENT_USER, ...ids, home: `/home/${AGENT_USER}` };
    runAgentsAs(user);
    space = await tempDir('relay-walls-');
    await chmod(space.path, 0o711);
    const homes = join(space.path, 'homes');
    await mkdir(homes, { mode: 0o700 });
    await chown(homes, ids.uid, ids.gid);
    raiseWalls(await decideSandbox({ setting: 'bwrap', allow: [] }, user), { homes, sockets: space.path });
    work = join(space.path, 'work');
    await mkdir(work, { mode: 0o700 });
    await chown(work, ids.uid, ids.gid);
    endpoint = await McpEndpoint.listen({ tools: [echo], deps: () => ({}) as never });
  });

  afterAll(async () => {
    lowerWalls();
    runAgentsAs(undefined);
    await endpoint?.close();
    await space?.remove();
  });

  /** The relay as the ACP wire offers it, started in walls of `scope` as the agent's user and connected to: the client, its stderr. */
  async function relayInWalls(scope: Omit<WallScope, 'home' | 'mcpUrl'>) {
    const grant = endpoint.grant({
      address: { transport: 'telegram', chat: '1' },
      depth: 0,
      sessionId: () => undefined,
      kind: 'main',
      tools: new Set(['echo']),
    });
    const relay = mcpOverStdio(grant)!;
    const walled = enclose(
      { command: relay.command, args: relay.args, cwd: work, env: { PATH: process.env.PATH, ...relay.env } },
      { home: 'relay', mcpUrl: grant.url, ...scope },
    );
    // The SDK's stdio client spawns as this process's user: setpriv makes it the agent's, as the bridge's own spawn does.
    const asAgent = ['--reuid', String(walled.uid), '--regid', String(walled.gid), '--clear-groups'];
    const transport = new StdioClientTransport({
      command: 'setpriv',
      args: [...asAgent, walled.command, ...walled.args],
      env: walled.env as Record<string, string>,
      cwd: work,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'agent-in-walls', version: '1' });
    const connected = await client.connect(transport).then(
      () => undefined,
      (error: Error) => error,
    );
    cleanups.push(async () => {
      await client.close().catch(() => {});
      walled.close();
      grant.revoke();
    });
    return { client, connected, stderr: () => stderr };
  }

  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('runs there on the bridge’s Node, reaches the endpoint through the walls’ forward, and relays a tool call', async () => {
    const { client, connected, stderr } = await relayInWalls({ readable: [MCP_RELAY_SCRIPT] });
    expect(connected, stderr()).toBeUndefined();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(await client.callTool({ name: 'echo', arguments: { text: 'from inside' } })).toMatchObject({
      content: [{ type: 'text', text: 'echo: from inside' }],
    });
  });

  it('is not there unless its walls show it: the bridge shows the relay to an agent that may start it', async () => {
    const { connected, stderr } = await relayInWalls({});
    expect(connected).toBeInstanceOf(Error);
    expect(stderr()).toMatch(/Cannot find module '.*mcp-stdio-relay\.js'/);
  });
});
