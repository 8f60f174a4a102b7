import { createHash, randomUUID } from 'node:crypto';
import { chown, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelRequest, Reply } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { ownerIn } from '../support/telegram-world.ts';
import { agentIds, AGENT_USER, cannotSwitchUser, sharedRepo } from '../support/agent-user.ts';
import { listen, type RunningServer } from '../support/loopback-server.ts';
import { cannotWall } from '../sandbox/walls-support.ts';
import { MOCK_API_KEY } from '../support/cli-env.ts';

// The real claude in its walls (BRIDGE_SANDBOX=bwrap as the agent user): it answers through
// the bridge's credential proxy holding only a placeholder key, runs a tool that writes in its
// directory and reaches an allowed host, resumes its session after a restart, and gets no
// further than its walls.
let real: RealCliWorld | undefined;
let project: { path: string; remove(): Promise<void> } | undefined;
let allowed: RunningServer | undefined;
let terminal: string | undefined;
let homes: string[] = [];
afterEach(async () => {
  if (terminal) await rm(terminal, { recursive: true, force: true });
  terminal = undefined;
  // Named for this test's bridge alone: nothing else uses them.
  for (const home of homes) await rm(home, { recursive: true, force: true });
  homes = [];
  await real?.stop();
  await project?.remove();
  await allowed?.close();
  real = project = allowed = undefined;
});

const CHAT = -4210;
let dataDir = '';
let allowedUrl = '';

function script(request: ModelRequest): Reply {
  const result = request.toolResults.at(-1);
  if (result) return { text: `tool said${result.isError ? ' (error)' : ''}: ${result.content}` };
  const text = request.lastUserText;
  if (/probe the walls/.test(text)) {
    const command = [
      'echo key: $ANTHROPIC_API_KEY',
      `(ls ${dataDir} >/dev/null 2>&1 && echo data: readable || echo data: refused)`,
      'echo made > made.txt && echo write: ok',
      `echo allowed: $(curl -s --max-time 5 ${allowedUrl})`,
      'echo blocked: $(curl -s --max-time 5 -o /dev/null -w "%{http_code}" http://example.com/)',
    ].join('; ');
    return { toolCalls: [{ name: 'Bash', input: { command, description: 'probe' } }] };
  }
  if (/spend behind its back/.test(text)) {
    // The agent calls the model API itself, through the credential proxy (which adds the key), and tries a call claude never makes.
    const body = JSON.stringify({ model: 'claude-opus-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'an agent call' }] });
    const command = [
      `echo messages: $(curl -s -o /dev/null -w "%{http_code}" -H "content-type: application/json" -d '${body}' $ANTHROPIC_BASE_URL/v1/messages)`,
      'echo anything: $(curl -s -o /dev/null -w "%{http_code}" $ANTHROPIC_BASE_URL/v1/anything)',
    ].join('; ');
    return { toolCalls: [{ name: 'Bash', input: { command, description: 'spend' } }] };
  }
  if (/an agent call/.test(text)) return { text: 'answered the agent' };
  // The whole conversation it was sent: a resumed session carries the earlier turns.
  if (/how many messages/.test(text)) return { text: `messages: ${request.messages.length}` };
  return { text: 'nothing to do' };
}

const { say, waitText: said } = ownerIn(() => real!.world, CHAT, 60_000);

/** This machine's address on its network, where a server outside the sandbox listens. */
function outsideAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((info) => info && !info.internal && info.family === 'IPv4')?.address;
}

const cannot = cannotSwitchUser() ?? cannotWall() ?? (outsideAddress() ? undefined : 'needs a network address besides loopback');

describe.skipIf(cannot)(`the real claude in its walls (${cannot ?? AGENT_USER})`, () => {
  it('answers through the credential proxy with a placeholder key, writes in its directory, reaches only an allowed host, and resumes after a restart', async () => {
    const { gid } = agentIds()!;
    project = await sharedRepo(gid);
    // A package index on this machine's own address (the sandbox's localhost is its own), named in the allowlist.
    const address = outsideAddress()!;
    allowed = await listen((_req, res) => res.end('package index'), { host: address });
    const port = new URL(allowed.origin).port;
    allowedUrl = `http://${address}:${port}/simple/`;
    real = await startRealCliWorld('claude', script, {
      BRIDGE_AGENT_USER: AGENT_USER,
      BRIDGE_SANDBOX: 'bwrap',
      BRIDGE_SANDBOX_ALLOW: `${address}:${port}`,
      BRIDGE_WORKDIR: project.path,
    });
    dataDir = real.world.dataDir;
    say('probe the walls');
    const reply = await said(/^tool said/);
    expect(reply.text).toContain('key: sk-held-by-the-bridge');
    expect(reply.text).toContain('data: refused');
    expect(reply.text).toContain('write: ok');
    expect(reply.text).toContain('allowed: package index');
    expect(reply.text).toContain('blocked: 403');
    // The mock model saw the real key, which the sandbox never held.
    const keys = new Set(real.mock.requests.map((request) => request.headers['x-api-key']));
    expect([...keys]).toEqual([MOCK_API_KEY]);
    expect((await readdir(project.path)).includes('made.txt')).toBe(true);
    // The refusal is in the audit trail, once.
    await expect
      .poll(async () => (await readFile(join(dataDir, 'audit.jsonl'), 'utf8').catch(() => '')).split('\n').filter((line) => line.includes('"blocked"')))
      .toEqual([expect.stringContaining(`"detail":"example.com: not on the list"`)]);

    // Its session is in the chat's own home, so the next start resumes it.
    await real.world.restart();
    say('how many messages');
    const resumed = await said(/^messages: /);
    expect(Number(/messages: (\d+)/.exec(resumed.text!)![1])).toBeGreaterThan(1);
    // The chat's home, named for this bridge's identity and the chat.
    const identity = (await readFile(join(dataDir, 'bridge-id'), 'utf8')).trim();
    const hash = createHash('sha256').update(`${identity}\0telegram:${CHAT}`).digest('hex').slice(0, 8);
    const home = join(`/home/${AGENT_USER}`, '.jsonl-bridge', 'homes', `telegram_${CHAT}-${hash}`);
    homes = [home, `${home}.terminal`];

    // A terminal continues it in a home beside it, its configuration the operator's.
    say('/handoff');
    expect((await said(/in a terminal/)).text).toContain(`HOME=${home}.terminal`);

    // A session started in a terminal, outside the walls: /resume offers it and brings it in.
    const key = project.path.replace(/[^A-Za-z0-9]/g, '-');
    terminal = join(`/home/${AGENT_USER}`, '.claude', 'projects', key);
    const id = randomUUID();
    // Made as the agent user, as its claude in a terminal would: a folder root made there would keep that claude from saving any session.
    await execa('runuser', ['-u', AGENT_USER, '--', 'mkdir', '-p', terminal]);
    await writeFile(join(terminal, `${id}.jsonl`), JSON.stringify({ type: 'user', message: { role: 'user', content: 'fix the terminal bug' } }) + '\n');
    await chown(join(terminal, `${id}.jsonl`), agentIds()!.uid, agentIds()!.gid);
    say('/resume');
    const listed = (await said(/^Sessions, newest first/)).text!.split('\n');
    const n = listed.findIndex((line) => line.includes('fix the terminal bug'));
    expect(n).toBeGreaterThan(0);
    say(`/resume ${n}`);
    await said(/continues the claude session "fix the terminal bug"/);
    expect(await readFile(join(home, '.claude', 'projects', key, `${id}.jsonl`), 'utf8')).toContain('fix the terminal bug');
  }, 180_000);

  it('meters a model call the agent makes itself through the credential proxy into the chat’s usage, and refuses a call claude never makes, audited', async () => {
    const { gid } = agentIds()!;
    project = await sharedRepo(gid);
    real = await startRealCliWorld('claude', script, { BRIDGE_AGENT_USER: AGENT_USER, BRIDGE_SANDBOX: 'bwrap', BRIDGE_WORKDIR: project.path });
    dataDir = real.world.dataDir;
    say('spend behind its back');
    const reply = await said(/^tool said/);
    expect(reply.text).toContain('messages: 200');
    expect(reply.text).toContain('anything: 403');
    // The refused call never reached the API; claude's two calls and the agent's own did, each with the real key.
    expect(real.mock.requests.map((request) => request.url)).not.toContain('/v1/anything');
    expect(real.mock.modelRequests).toHaveLength(3);
    await expect
      .poll(async () => (await readFile(join(dataDir, 'audit.jsonl'), 'utf8').catch(() => '')).split('\n').filter((line) => line.includes('"blocked"')))
      .toEqual([expect.stringMatching(/"detail":"127\.0\.0\.1:\d+ GET \/v1\/anything: GET \/v1\/anything is not a call this CLI makes/)]);
    // The chat's usage is what the proxy metered: all three calls (12 input tokens each at the mock), not the two claude reports.
    const inputTokens = async () => {
      const usage = JSON.parse(await readFile(join(dataDir, 'usage.json'), 'utf8').catch(() => '{"chats":{}}')) as {
        chats: Record<string, { total: Record<string, { inputTokens: number; costUsd: number }> }>;
      };
      return Object.values(usage.chats).flatMap((chat) => Object.values(chat.total));
    };
    await expect.poll(inputTokens, { timeout: 20_000 }).toEqual([expect.objectContaining({ inputTokens: 36, costUsd: expect.any(Number) })]);
    expect((await inputTokens())[0]!.costUsd).toBeGreaterThan(0);
  }, 180_000);
});
