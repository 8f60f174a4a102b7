import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest, Reply } from '../support/mock-model/index.ts';
import { startMockMcpServer, type MockMcpServer } from '../support/mock-model/mcp-server.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';

// A repository that ships its own Claude Code configuration — a hook in .claude/settings.json
// and a command MCP server in .mcp.json — with the real claude binary: neither runs until the
// owner trusts the directory, both run after /trust, and neither runs in safe mode. The
// operator's agents still get their own MCP servers under --strict-mcp-config.
let real: RealCliWorld;
let docs: MockMcpServer;
let marks: string;
const CHAT = OWNER;
const owner = ownerIn(() => real.world, CHAT, 40_000);

/** The tools the docs agent was offered, once it ran. */
let docsAgentTools: string[] | undefined;
const notified = (request: ModelRequest) => JSON.stringify(request.messages).includes('<task-notification>');

/** Plain answers naming the message; asked to delegate, a Task call to "docs-agent" (which runs in the background). */
function script(request: ModelRequest): Reply {
  if (request.system.includes('DOCS-AGENT-PROMPT')) {
    docsAgentTools = request.toolNames;
    return { text: 'looked it up' };
  }
  if (notified(request)) return { text: 'delegated: the docs agent finished' };
  if (request.toolResults.length) return { text: 'the docs agent is on it' };
  const task = request.toolNames.find((name) => name === 'Agent' || name === 'Task');
  if (/delegate/.test(request.lastUserText) && task)
    return { toolCalls: [{ name: task, input: { description: 'Ask the docs agent', prompt: 'Look it up', subagent_type: 'docs-agent' } }] };
  return { text: `answer to ${request.lastUserText}` };
}

const ran = () => ({ hook: existsSync(join(marks, 'hook')), mcp: existsSync(join(marks, 'mcp')) });
async function turn(text: string): Promise<void> {
  owner.say(text);
  await owner.waitText(new RegExp(`^answer to ${text}`));
}

beforeAll(async () => {
  real = await startRealCliWorld('claude', script);
  docs = await startMockMcpServer({ name: 'docs', tools: [{ name: 'lookup' }] });
  marks = join(real.cliEnv.workdir, '..', 'marks');
  await mkdir(marks);
  const repo = real.cliEnv.workdir;
  await mkdir(join(repo, '.claude'));
  await writeFile(
    join(repo, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${join(marks, 'hook')}` }] }] } }),
  );
  await writeFile(join(repo, '.mcp.json'), JSON.stringify({ mcpServers: { repo: { command: 'sh', args: ['-c', `touch ${join(marks, 'mcp')}`] } } }));
});
afterAll(async () => {
  await real.stop();
  await docs.close();
});

describe("a repository's own hooks and MCP servers, with the real claude", () => {
  it('do not run while the directory is untrusted', async () => {
    await turn('first');
    expect(ran()).toEqual({ hook: false, mcp: false });
  });

  it('run once the owner trusts the directory, and /status says so', async () => {
    owner.say('/trust on');
    await owner.waitText(/^🛡 Trusted .* and everything below it, for every chat/);
    await turn('second');
    expect(ran()).toEqual({ hook: true, mcp: true });
    owner.say('/status');
    expect((await owner.waitText(/Trust: /)).text).toMatch(/Trust: trusted \(/);
  });

  it('do not run in safe mode, trusted or not', async () => {
    await rm(marks, { recursive: true });
    await mkdir(marks);
    owner.say('/permissions safe');
    await owner.waitText(/Permissions: safe/);
    await turn('third');
    expect(ran()).toEqual({ hook: false, mcp: false });
  });

  it("an operator's agent still gets its own MCP server inline, untrusted (--strict-mcp-config)", async () => {
    owner.say('/permissions bypass');
    await owner.waitText(/Permissions: bypass/);
    owner.say('/trust off');
    await owner.waitText(/is no longer trusted/);
    const agent = join(real.world.dataDir, 'agents', 'docs-agent');
    await mkdir(agent, { recursive: true });
    await writeFile(join(agent, 'agent.json'), JSON.stringify({ description: 'Looks things up', mcpServers: ['docs'] }));
    await writeFile(join(agent, 'prompt.md'), 'DOCS-AGENT-PROMPT\n');
    await writeFile(join(real.world.dataDir, 'mcp-servers.json'), JSON.stringify({ mcpServers: { docs: { type: 'http', url: docs.url } } }));
    owner.say('please delegate');
    await owner.waitText(/^delegated: /, 60_000);
    expect(docsAgentTools).toContain('mcp__docs__lookup');
    expect(ran()).toEqual({ hook: false, mcp: false });
  });
});
