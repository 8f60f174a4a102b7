import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTelegramWorld, ownerIn, type TelegramWorld } from '../support/telegram-world.ts';

// User-defined agents and the other run options through a real bridge process.
let world: TelegramWorld;
beforeAll(async () => {
  world = await startTelegramWorld();
  const agents = join(world.workdir, '.bridge', 'agents');
  await mkdir(join(agents, 'reviewer'), { recursive: true });
  await writeFile(
    join(agents, 'reviewer', 'agent.json'),
    JSON.stringify({ name: 'Code Reviewer', description: 'Reviews diffs for bugs', allowedTools: ['Read', 'Grep'], maxTurns: 5, budget: 0.5 }),
  );
  await writeFile(join(agents, 'reviewer', 'prompt.md'), 'You review code. Be strict.\n');
  await mkdir(join(agents, 'broken'), { recursive: true });
  await writeFile(join(agents, 'broken', 'agent.json'), '{ "description": ');
  await mkdir(join(world.workdir, '.claude', 'agents'), { recursive: true });
  await writeFile(
    join(world.workdir, '.claude', 'agents', 'writer.md'),
    '---\nname: Doc Writer\ndescription: Writes docs\ntools: Read, Write\n---\nYou write documentation.\n',
  );
  // The repository's own agents count once the owner trusts it.
  say('/trust on');
  await waitText(/^🛡 Trusted/);
});
afterAll(() => world.stop());

const CHAT = -1000;
const { say, waitText } = ownerIn(() => world, CHAT);

describe('agents from the chat', () => {
  it('/agents lists the definitions and reports the broken one with its file', async () => {
    say('/agents');
    const list = await waitText(/^Agents\n/);
    expect(list.text).toContain('reviewer Code Reviewer (tools: Read, Grep): Reviews diffs for bugs');
    expect(list.text).toContain('writer Doc Writer (tools: Read, Write): Writes docs');
    expect(list.text).toMatch(/⚠️ 1 problem .*\n• .*\.bridge\/agents\/broken\/agent\.json: not valid JSON/);
  });

  it("/spawn --agent runs with the agent's prompt, tools and turn limit, and is announced by its name", async () => {
    say('/spawn --agent reviewer "look at the diff"');
    const done = await waitText(/^✅ #1 Code Reviewer/);
    expect(done.text).toContain('echo: look at the diff');
    const call = (await world.cli.invocations()).find((c) => c.prompt === 'look at the diff')!;
    const system = call.argv[call.argv.indexOf('--append-system-prompt') + 1]!;
    expect(system).toMatch(/^You are a subagent/);
    expect(system).toContain('You review code. Be strict.');
    expect(call.argv.join(' ')).toContain('--tools Read,Grep'); // claude's flag for the tools that exist
    expect(call.argv.join(' ')).toContain('--max-turns 5');
    say('/subagents');
    const list = await waitText(/^Subagents\n/);
    expect(list.text).toContain('#1 Code Reviewer · ✅ completed');
  });

  it('names what is wrong with an unknown or broken agent', async () => {
    say('/spawn --agent nobody "x"');
    await waitText(/Unknown agent "nobody"\. Known: reviewer, writer\./);
    say('/spawn --agent broken "x"');
    await waitText(/Agent "broken" has problems and was skipped: .*agent\.json: not valid JSON/);
  });

  it('refuses --worktree outside a git repository', async () => {
    say('/spawn --worktree "x"');
    await waitText(new RegExp(`${world.workdir} is not inside a git repository: --worktree needs one\\.`));
  });
});

describe('agents in the CLI and managed from the chat', () => {
  let nextChat = -1100;
  const chatSay = (chat: number, text: string, replyTo?: number) =>
    world.telegram.sendText({ chatId: chat, userId: OWNER, text, chatType: 'group', firstName: 'Ada', ...(replyTo ? { replyTo } : {}) });
  const chatText = (chat: number, pattern: RegExp) =>
    world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => pattern.test(m.text ?? m.caption ?? '')), 20_000);
  const turn = async (chat: number, text: string) => {
    chatSay(chat, text);
    await chatText(chat, new RegExp(`^echo: ${text}`));
    return (await world.cli.invocations()).findLast((c) => c.prompt === text)!;
  };

  it("gives the chat's CLI the enabled agents for its Task tool, never a broken one", async () => {
    const chat = nextChat--;
    const call = await turn(chat, 'delegate please');
    expect(Object.keys(call.agents!).sort()).toEqual(['reviewer', 'writer']);
    expect(call.agents!.reviewer).toEqual({
      description: 'Reviews diffs for bugs',
      prompt: 'You review code. Be strict.',
      tools: ['Read', 'Grep'],
      maxTurns: 5,
    });
    expect(call.agents!.writer).toMatchObject({ description: 'Writes docs', prompt: 'You write documentation.', tools: ['Read', 'Write'] });
  });

  it('/agents disable and enable switch an agent without touching its file, for the CLI and /spawn alike', async () => {
    const chat = nextChat--;
    const file = join(world.workdir, '.claude', 'agents', 'writer.md');
    const before = await readFile(file, 'utf8');
    chatSay(chat, '/agents disable writer');
    await chatText(chat, /^⏸ writer is disabled: nothing runs it until \/agents enable writer\. Its file is unchanged\.$/);
    expect(Object.keys((await turn(chat, 'without the writer')).agents!)).toEqual(['reviewer']);
    chatSay(chat, '/spawn --agent writer "docs"');
    await chatText(chat, /Agent "writer" is disabled: \/agents enable writer turns it on\./);
    chatSay(chat, '/agents');
    await chatText(chat, /⏸ writer Doc Writer \(tools: Read, Write · disabled\)/);
    chatSay(chat, '/agents enable writer');
    await chatText(chat, /^✅ writer is enabled/);
    expect(Object.keys((await turn(chat, 'with the writer')).agents!).sort()).toEqual(['reviewer', 'writer']);
    expect(await readFile(file, 'utf8')).toBe(before);
    chatSay(chat, '/agents disable nobody');
    await chatText(chat, /No agent "nobody" here: \/agents lists them\./);
  });

  it('/agents show gives the definition and its prompt, as a file when long', async () => {
    const chat = nextChat--;
    chatSay(chat, '/agents show reviewer');
    const shown = await chatText(chat, /^reviewer\n/);
    expect(shown.text).toContain('Name: Code Reviewer');
    expect(shown.text).toContain("From: the project's (.bridge/agents)");
    expect(shown.text).toContain('Tools: Read, Grep');
    expect(shown.text).toContain('Max turns: 5');
    expect(shown.text).toContain('Budget: $0.50 a run (stopped for cost once reached)');
    expect(shown.text).toMatch(/Prompt\nYou review code\. Be strict\.$/);
    const long = join(world.workdir, '.bridge', 'agents', 'novelist');
    await mkdir(long, { recursive: true });
    await writeFile(join(long, 'agent.json'), JSON.stringify({ description: 'Writes at length', icon: '📚' }));
    await writeFile(join(long, 'prompt.md'), `${'You write long chapters. '.repeat(300)}\n`);
    chatSay(chat, '/agents show novelist');
    const document = await chatText(chat, /📚 Writes at length|📚 novelist: its definition and prompt/);
    expect(document.document?.fileName).toBe('novelist.md');
    chatSay(chat, '/agents show ghost');
    await chatText(chat, /Unknown agent "ghost"/);
  });

  it('/agents new saves an agent in the data directory from the message or the one it replies to', async () => {
    const chat = nextChat--;
    chatSay(chat, '/agents new tester --description "Writes failing tests first" You write tests.\nAlways run them.');
    await chatText(chat, /^🆕 Agent tester saved in .*\/agents\/tester\/agent\.json: "Writes failing tests first"\./);
    expect(JSON.parse(await readFile(join(world.dataDir, 'agents', 'tester', 'agent.json'), 'utf8'))).toEqual({ description: 'Writes failing tests first' });
    expect(await readFile(join(world.dataDir, 'agents', 'tester', 'prompt.md'), 'utf8')).toBe('You write tests.\nAlways run them.\n');
    const prompt = chatSay(chat, 'You translate everything into French.');
    chatSay(chat, '/agents new translator', prompt.message_id);
    await chatText(chat, /^🆕 Agent translator saved .*: "You translate everything into French\."/);
    // That message was a turn too: done before the next one, which would otherwise steer it.
    await chatText(chat, /^echo: You translate everything into French\./);
    chatSay(chat, '/agents new tester Again.');
    await chatText(chat, /An agent "tester" already exists in .*: edit its files, or choose another name\./);
    chatSay(chat, '/agents new Bad/Name x');
    await chatText(chat, /"bad\/name" is not a valid agent name/);
    chatSay(chat, '/agents new lonely');
    await chatText(chat, /Give lonely its prompt: after the name, or reply to a message holding it\./);
    // A project's agent of the same name stays as it is; the new one, the operator's, comes first.
    const before = await readFile(join(world.workdir, '.bridge', 'agents', 'reviewer', 'prompt.md'), 'utf8');
    chatSay(chat, '/agents new reviewer A gentler reviewer.');
    await chatText(chat, /It takes the place of the project's reviewer \(.*\.bridge\/agents\/reviewer\/agent\.json\), which is unchanged\./);
    expect(await readFile(join(world.workdir, '.bridge', 'agents', 'reviewer', 'prompt.md'), 'utf8')).toBe(before);
    expect((await turn(chat, 'who reviews')).agents!.reviewer!.prompt).toBe('A gentler reviewer.');
    await import('node:fs/promises').then((fs) => fs.rm(join(world.dataDir, 'agents', 'reviewer'), { recursive: true }));
  });

  it("an agent's MCP servers are the operator's: named ones reach its run, unknown ones are a problem", async () => {
    const chat = nextChat--;
    await writeFile(join(world.dataDir, 'mcp-servers.json'), JSON.stringify({ mcpServers: { docs: { command: 'docs-server', args: ['--stdio'] } } }));
    const dir = join(world.workdir, '.bridge', 'agents');
    await mkdir(join(dir, 'librarian'), { recursive: true });
    await writeFile(join(dir, 'librarian', 'agent.json'), JSON.stringify({ description: 'Finds docs', mcpServers: ['docs'], skills: ['pdf'], icon: '📖' }));
    await writeFile(join(dir, 'librarian', 'prompt.md'), 'You look things up.\n');
    await mkdir(join(dir, 'smuggler'), { recursive: true });
    await writeFile(join(dir, 'smuggler', 'agent.json'), JSON.stringify({ description: 'Brings its own', mcpServers: ['evil'] }));
    await writeFile(join(dir, 'smuggler', 'prompt.md'), 'x\n');
    try {
      chatSay(chat, '/agents');
      const list = await chatText(chat, /^Agents\n/);
      expect(list.text).toContain('📖 librarian librarian (MCP: docs): Finds docs');
      expect(list.text).toMatch(/smuggler\/agent\.json: field "mcpServers\.0": unknown MCP server "evil" \(configured: docs;/);
      const call = await turn(chat, 'look it up');
      expect(call.agents!.librarian).toMatchObject({ mcpServers: [{ docs: { command: 'docs-server', args: ['--stdio'] } }], skills: ['pdf'] });
      expect(call.agents!.smuggler).toBeUndefined();
      chatSay(chat, '/spawn --agent librarian "find it"');
      await chatText(chat, /^✅ #\d+ librarian/);
      const run = (await world.cli.invocations()).find((c) => c.prompt === 'find it')!;
      expect(run.mcpServers).toEqual(['docs', 'bridge']); // the operator's server, and the bridge's own
    } finally {
      await import('node:fs/promises').then(async (fs) => {
        await fs.rm(join(dir, 'librarian'), { recursive: true });
        await fs.rm(join(dir, 'smuggler'), { recursive: true });
        await fs.rm(join(world.dataDir, 'mcp-servers.json'));
      });
    }
  });
});
