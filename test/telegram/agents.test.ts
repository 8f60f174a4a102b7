import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// User-defined agents and the other run options through a real bridge process.
let world: TelegramWorld;
beforeAll(async () => {
  world = await startTelegramWorld();
  const agents = join(world.workdir, '.bridge', 'agents');
  await mkdir(join(agents, 'reviewer'), { recursive: true });
  await writeFile(
    join(agents, 'reviewer', 'agent.json'),
    JSON.stringify({ name: 'Code Reviewer', description: 'Reviews diffs for bugs', allowedTools: ['Read', 'Grep'], maxTurns: 5 }),
  );
  await writeFile(join(agents, 'reviewer', 'prompt.md'), 'You review code. Be strict.\n');
  await mkdir(join(agents, 'broken'), { recursive: true });
  await writeFile(join(agents, 'broken', 'agent.json'), '{ "description": ');
  await mkdir(join(world.workdir, '.claude', 'agents'), { recursive: true });
  await writeFile(
    join(world.workdir, '.claude', 'agents', 'writer.md'),
    '---\nname: Doc Writer\ndescription: Writes docs\ntools: Read, Write\n---\nYou write documentation.\n',
  );
});
afterAll(() => world.stop());

const CHAT = -1000;
const say = (text: string) => world.telegram.sendText({ chatId: CHAT, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
const waitText = (pattern: RegExp) => world.telegram.waitFor(() => world.telegram.botMessages(CHAT).find((m) => pattern.test(m.text ?? '')), 20_000);

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
