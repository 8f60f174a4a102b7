import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { execa } from 'execa';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentIds, AGENT_USER, cannotSwitchUser, giveToAgent, sharedRepo } from '../support/agent-user.ts';
import { ownerIn, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';
import { cannotWall, escapeIn, outsideAddress, type Escape } from './walls-support.ts';
import { askerId } from '../../src/work/approvals/asker.ts';
import { listen } from '../support/loopback-server.ts';
import { apiAddressOf, chatApiClient, introduceChats } from '../support/api-client.ts';

// A chat's CLI in its walls, through the real bridge process: the fake CLI tries to get out.
let world: TelegramWorld | undefined;
let project: { path: string; remove(): Promise<void> } | undefined;
afterEach(async () => {
  await world?.stop();
  await project?.remove();
  world = project = undefined;
});

const CHAT = -4200;
const { say, waitText: answer } = ownerIn(() => world!, CHAT);
const cannot = cannotSwitchUser() ?? cannotWall();

describe.skipIf(cannot)(`a chat's CLI with BRIDGE_SANDBOX=bwrap (${cannot ?? AGENT_USER})`, () => {
  async function start(env: Record<string, string> = {}) {
    const ids = agentIds()!;
    project = await sharedRepo(ids.gid);
    world = await startTelegramWorld({ BRIDGE_AGENT_USER: AGENT_USER, BRIDGE_SANDBOX: 'bwrap', BRIDGE_WORKDIR: project.path, ...env });
    await giveToAgent(world.cli.dir, ids);
    return ids;
  }

  it('says so at start, reaches the bridge’s MCP server through its socket, and nothing of the bridge else', async () => {
    const { uid } = await start();
    expect(world!.bridge.log()).toContain(`sandbox: every CLI runs in a bubblewrap sandbox as ${AGENT_USER} (BRIDGE_AGENT_USER, uid ${uid})`);
    say('mcp-check');
    await answer(/^mcp: accepted/, 30_000);

    const dataDir = world!.dataDir;
    say('escape');
    const reply = await answer(/^\{"keys"/, 30_000);
    const seen = JSON.parse(reply.text!.split('\n')[0]!) as Escape; // then the turn's footer
    expect(seen.read[dataDir]).toMatch(/^refused: ENOENT/);
    expect(seen.pids).toBeLessThan(10);
    // Its home is its chat's own, kept in the agent user's home, outside the data directory.
    const homes = await readdir(join(`/home/${AGENT_USER}`, '.jsonl-bridge', 'homes'));
    expect(homes.some((name) => name.startsWith(`telegram_${CHAT}`))).toBe(true);
  });

  it('cannot read another chat’s MCP secret, though both chats’ agents run as one user: its walls hold its own config alone', async () => {
    const OTHER = -4201;
    const other = ownerIn(() => world!, OTHER);
    const sibling = `${askerId.main({ transport: 'telegram', chat: String(OTHER) }).replace(/[^\w-]/g, '_')}.json`;
    await start({ FAKE_ESCAPE_MCP_SIBLINGS: sibling });
    other.say('mcp-check');
    await other.waitText(/^mcp: accepted/, 30_000);
    say('escape');
    const seen = parse(await answer(/^\{"keys"/, 30_000));
    expect(seen.read[`mcp:${sibling}`]).toMatch(/^refused: ENOENT/);
  });

  it('runs a run in its worktree in walls too: a home of its own, the data directory out of sight', async () => {
    await start();
    say('/spawn --worktree "escape"');
    const done = await answer(/^✅ #1/, 60_000);
    const seen = escapeIn(done.text!);
    expect(seen.read[world!.dataDir]).toMatch(/^refused: ENOENT/);
    expect(seen.pids).toBeLessThan(10);
    const homes = await readdir(join(`/home/${AGENT_USER}`, '.jsonl-bridge', 'homes'));
    expect(homes.some((name) => name.startsWith('run-'))).toBe(true);
  });

  it('runs an orchestration step in walls too: a home of its own, the data directory out of sight, its chat’s /net hosts and no other', async () => {
    const address = outsideAddress()!;
    const server = await listen((_req, res) => res.end('ok'), { host: address });
    try {
      const host = new URL(server.origin).host;
      // This machine's address is internal (private, or documentation's): the operator opens it, for /net to allow.
      await start({ FAKE_ESCAPE_URLS: `${server.origin}/,http://example.com/`, BRIDGE_SANDBOX_INTERNAL: address });
      const homes = () => readdir(join(`/home/${AGENT_USER}`, '.jsonl-bridge', 'homes')).catch(() => [] as string[]);
      const before = await homes();
      say(`/net allow ${host}`);
      await answer(/may now reach/);
      say('/orchestrate name: Walled\nlook: escape');
      const done = await answer(/^✅ Walled \(orchestration #1\)/, 60_000);
      const seen = escapeIn(done.text!);
      expect(seen.read[world!.dataDir]).toMatch(/^refused: ENOENT/);
      expect(seen.pids).toBeLessThan(10);
      // Its run's own home (named for the run): walled runs of other tests may make theirs meanwhile.
      const { runs } = JSON.parse(await readFile(join(world!.dataDir, 'subagents.json'), 'utf8')) as { runs: Record<string, unknown> };
      expect(Object.keys(runs)).toHaveLength(1);
      expect((await homes()).filter((name) => !before.includes(name) && name.startsWith(`run-${Object.keys(runs)[0]}-`))).toHaveLength(1);
      expect(seen.proxied[`${server.origin}/`]).toBe('ok: status 200');
      expect(seen.proxied['http://example.com/']).toBe('refused: status 403');
      await answer(/^🚫 #1 look: blocked example\.com \(not on the list\)/);
    } finally {
      await server.close();
    }
  });

  it('says under the answer why the agent could not reach a host: blocked, or no such host, each with its own fix', async () => {
    await start({ BRIDGE_SANDBOX_ALLOW: 'no-such-host.invalid' });
    say('fetch:http://example.com/');
    const blocked = await answer(/^fetch: refused \(status 403\)/, 30_000);
    expect(blocked.text).toContain('\n🚫 blocked example.com (not on the list: /net allow example.com)');
    say('fetch:http://no-such-host.invalid/');
    const unknown = await answer(/^fetch: refused \(status 403\)[\s\S]*no-such-host/, 30_000);
    expect(unknown.text).toContain('\n❓ no-such-host.invalid: no such host (the name does not resolve');
    expect(unknown.text).not.toContain('blocked');
  });

  it('streams a refused host to a ChatService client as a blocked event of the turn', async () => {
    const TOKEN = 'ci-token-0123456789abcdef';
    await start({ BRIDGE_API_ADDR: '127.0.0.1:0', BRIDGE_API_TOKENS: `ci=${TOKEN}`, BRIDGE_API_SCOPES: `ci=${CHAT}` });
    await world!.bridge.waitForLog(/ChatService beside it/);
    await introduceChats(world!, [CHAT]);
    const api = chatApiClient(apiAddressOf(world!), TOKEN);
    try {
      const messages = await api.send({ chat: { chatId: CHAT }, text: 'fetch:http://example.com/' }).messages;
      const blocked = messages.filter((m) => m.agent?.blocked).map((m) => m.agent!.blocked);
      expect(blocked).toEqual([{ host: 'example.com', why: 'not on the list' }]);
      expect(messages.at(-1)!.ended).toMatchObject({ status: 'TURN_STATUS_COMPLETED', text: 'fetch: refused (status 403)' });
    } finally {
      api.close();
    }
  });

  it('/net allow lets the chat’s agent reach a host from then on, /net deny takes it back; each refusal in the audit trail', async () => {
    const address = outsideAddress()!;
    const server = await listen((_req, res) => res.end('ok'), { host: address });
    try {
      const host = new URL(server.origin).host;
      await start({ FAKE_ESCAPE_URLS: `${server.origin}/`, BRIDGE_SANDBOX_INTERNAL: address });
      expect((await escapeAgain()).proxied[`${server.origin}/`]).toBe('refused: status 403');

      say(`/net allow ${host}`);
      await answer(new RegExp(`may now reach ${host.replace(/\./g, '\\.')}`));
      expect((await escapeAgain()).proxied[`${server.origin}/`]).toBe('ok: status 200');
      say('/net');
      await answer(new RegExp(`may reach: ${host.replace(/\./g, '\\.')}`));

      say(`/net deny ${host}`);
      await answer(/may no longer reach/);
      expect((await escapeAgain()).proxied[`${server.origin}/`]).toBe('refused: status 403');
      // The audit trail is written in batches: what it holds shortly after.
      const audit = () => readFile(join(world!.dataDir, 'audit.jsonl'), 'utf8').catch(() => '');
      await expect.poll(audit).toContain(`"event":"net"`);
      await expect.poll(audit).toContain(`"detail":"${address}: not on the list"`);
    } finally {
      await server.close();
    }
  });

  it("/resume in walls follows no link the agent planted in its home: another chat's sessions, its own uid's, are not listed", async () => {
    const ids = await start();
    const OTHER = -4202;
    const other = ownerIn(() => world!, OTHER);
    other.say('say:other-chat');
    await other.waitText(/^other-chat/, 30_000);
    say('say:this-chat');
    await answer(/^this-chat/, 30_000);
    const homes = join(`/home/${AGENT_USER}`, '.jsonl-bridge', 'homes');
    const homeOf = async (chat: number) => {
      const names = (await readdir(homes)).filter((name) => name.includes(`_${chat}`));
      const dated = await Promise.all(names.map(async (name) => ({ name, at: (await stat(join(homes, name))).mtimeMs })));
      return join(homes, dated.sort((a, b) => b.at - a.at)[0]!.name);
    };
    const slug = project!.path.replace(/[^A-Za-z0-9]/g, '-');
    const asAgent = (command: string, ...args: string[]) => execa(command, args, { uid: ids.uid, gid: ids.gid });
    // The other chat's session, in its home: the agent user's as much as this chat's home is.
    const theirs = join(await homeOf(OTHER), '.claude', 'projects', slug);
    await asAgent('mkdir', '-p', theirs);
    await asAgent(
      'sh',
      '-c',
      'printf "%s\\n" "$1" > "$2"',
      'sh',
      JSON.stringify({ type: 'user', timestamp: new Date().toISOString(), message: { role: 'user', content: 'OTHER CHAT PROMPT' } }),
      join(theirs, '0b6f6a4e-0000-4000-8000-000000000002.jsonl'),
    );
    // What this chat's agent plants in its own home: its sessions' folder, a link to theirs.
    const ours = join(await homeOf(CHAT), '.claude', 'projects');
    await asAgent('mkdir', '-p', ours);
    await asAgent('ln', '-sfn', theirs, join(ours, slug));
    try {
      say('/resume');
      const listed = await answer(/^(No sessions yet|Sessions, newest first)/);
      expect(listed.text).not.toContain('OTHER CHAT PROMPT');
      other.say('/resume');
      expect((await other.waitText(/^Sessions, newest first/)).text).toContain('OTHER CHAT PROMPT'); // there, it is that chat's own
    } finally {
      // The homes outlive this test (the agent user's): leave nothing in them for another.
      await rm(join(ours, slug), { force: true });
      await rm(theirs, { recursive: true, force: true });
    }
  });
});

/** The answer of a new `escape` turn (not one already in the chat). */
async function escapeAgain(): Promise<Escape> {
  const answers = () => world!.telegram.botMessages(CHAT).filter((message) => /^\{"keys"/.test(message.text ?? ''));
  const before = answers().length;
  say('escape');
  await world!.telegram.waitFor(() => answers().length > before || undefined, 30_000);
  return parse(answers().at(-1)!);
}

function parse(reply: { text?: string }): Escape {
  return JSON.parse(reply.text!.split('\n')[0]!) as Escape; // then the turn's footer
}
