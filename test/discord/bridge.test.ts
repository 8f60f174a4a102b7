import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADA, paragraphsIn, shownContent, STRANGER, startDiscordWorld, unescaped, type DiscordWorld } from '../support/discord-world.ts';
import type { MessageRecord } from '../support/fake-discord/index.ts';

// The bridge as a real process with only Discord's settings, driven through the fake Discord by
// the real discord.js over real sockets, with the fake CLI as its agent.
let world: DiscordWorld;
beforeAll(async () => (world = await startDiscordWorld()));
afterAll(() => world?.stop());

const fake = () => world.discord;

/** Each test gets its own channel, so they do not share sessions. */
const newChannel = (name: string) => fake().addChannel(name);

async function answer(channel: string, pattern: RegExp, timeoutMs = 20_000): Promise<MessageRecord> {
  return fake().waitFor(
    () =>
      fake()
        .botMessages(channel)
        .find((m) => pattern.test(shownContent(m))),
    timeoutMs,
  );
}

function buttonsOf(message: MessageRecord): { label: string; custom_id?: string }[] {
  return (message.components as { components: { label: string; custom_id?: string }[] }[]).flatMap((row) => row.components);
}

async function prompts(): Promise<string[]> {
  return (await world.cli.invocations()).map((i) => i.prompt);
}

describe('Discord', () => {
  it('registers the commands as application commands, each taking its text as one option', async () => {
    await fake().waitFor(() => fake().commands.length > 0);
    const names = fake().commands.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['status', 'spawn', 'new', 'stop', 'help']));
    expect(fake().commands.every((c) => c.description.length <= 100)).toBe(true);
    expect(fake().commands.find((c) => c.name === 'spawn')?.options).toEqual([expect.objectContaining({ type: 3, name: 'text', required: false })]);
  });

  it('answers a DM turn in place of its progress message, which it edits as the turn goes', async () => {
    const question = fake().send({ user: ADA, name: 'Ada', text: 'hello there tools:2' });
    const dm = fake().dmOf(ADA);
    const reply = await answer(dm, /^echo: hello there tools:2 \(turn 1\)$/);
    expect(fake().botMessages(dm)).toHaveLength(1);
    expect(reply.versions[0]).toMatch(/^\*\*⚙️ claude · working · 0:0\d\*\*/);
    expect(reply.versions.length).toBeGreaterThan(1);
    expect(reply.content).toMatch(/\n\n\*✅ 0:0\d · 2 steps · 10 in \/ 5 out · \$0\.0010 · 📁 /);
    expect(reply.replyTo).toBe(question.id);
    expect(reply.components).toEqual([]);
    expect(reply.content.length).toBeLessThanOrEqual(2000);
  });

  it('answers in a server channel only when mentioned, the mention taken out of the prompt', async () => {
    const channel = newChannel('mentions');
    fake().send({ user: ADA, channel, text: 'not for the bot' });
    const asked = fake().send({ user: ADA, channel, text: 'say:heard-you', mentionBot: true });
    const reply = await answer(channel, /^heard-you$/);
    expect(reply.replyTo).toBe(asked.id);
    expect(await prompts()).not.toContain('not for the bot');
    expect((await prompts()).filter((p) => p.includes('say:heard-you'))).toEqual(['say:heard-you']);
  });

  it('keeps a thread as a session of its own, answering every message in it', async () => {
    const channel = newChannel('threads');
    fake().send({ user: ADA, channel, text: 'in the channel', mentionBot: true });
    await answer(channel, /^echo: in the channel \(turn 1\)$/);
    const thread = fake().startThread({ user: ADA, channel, name: 'refactor' });
    fake().send({ user: ADA, channel: thread, text: 'first in thread' });
    await answer(thread, /^echo: first in thread \(turn 1\)$/);
    fake().send({ user: ADA, channel: thread, text: 'second in thread' });
    await answer(thread, /^echo: second in thread \(turn 2\)$/);
    // The channel's own session goes on from its own turn.
    fake().send({ user: ADA, channel, text: 'back in the channel', mentionBot: true });
    await answer(channel, /^echo: back in the channel \(turn 2\)$/);
  });

  it('says what reaches the agent when a message in a thread holds neither text nor files (a sticker)', async () => {
    const channel = newChannel('stickers');
    const thread = fake().startThread({ user: ADA, channel, name: 'stickers' });
    const sticker = fake().send({ user: ADA, channel: thread, text: '' });
    const told = await answer(thread, /^Only text and files reach the agent\.$/);
    expect(told.replyTo).toBe(sticker.id);
    expect(
      fake()
        .botMessages(thread)
        .filter((m) => /Message Content/.test(m.content)),
    ).toEqual([]);
  });

  it('defers /status within 3 s and answers it in the deferred reply', async () => {
    const channel = newChannel('status');
    const run = fake().runCommand({ user: ADA, channel, command: 'status' });
    await fake().waitFor(() => fake().message(run.originalMessageId ?? '')?.versions.length === 2 && fake().message(run.originalMessageId!), 20_000);
    expect(run.answeredWith).toBe(5);
    expect(run.answeredAt! - run.createdAt).toBeLessThan(3000);
    const reply = fake().message(run.originalMessageId!)!;
    expect(reply.content).toMatch(/claude/);
    expect(reply.flags & 128).toBe(0); // no longer "thinking…"
  });

  it('runs /spawn from its command, with its text option as the task, and announces the run once', async () => {
    const channel = newChannel('spawn');
    const run = fake().runCommand({ user: ADA, channel, command: 'spawn', text: '--label Research "sleep:0.5 say:found-it"' });
    const started = await answer(channel, /^🚀 #1 started: Research · claude/);
    expect(started.id).toBe(run.originalMessageId);
    expect(buttonsOf(started).map((b) => b.label)).toEqual(['⏹ Stop #1']);
    await answer(channel, /^\*\*✅ #1 Research · 0:0\d/);
    expect(
      fake()
        .botMessages(channel)
        .filter((m) => m.content.includes('found-it')),
    ).toHaveLength(1);
  });

  it('asks for approval with buttons, and the press answers the agent', async () => {
    const channel = newChannel('approvals');
    fake().send({ user: ADA, channel, text: '/permissions ask', mentionBot: true });
    await answer(channel, /Permissions: ask/);
    fake().send({ user: ADA, channel, text: 'tools:1 say:asking', mentionBot: true });
    const question = await fake().waitFor(
      () =>
        fake()
          .botMessages(channel)
          .find((m) => /Bash/.test(m.content) && buttonsOf(m).length),
      20_000,
    );
    const allow = buttonsOf(question).find((b) => /Allow/.test(b.label))!;
    expect(allow.custom_id!.length).toBeLessThanOrEqual(100);
    const press = fake().pressButton({ user: ADA, message: question.id, customId: allow.custom_id! });
    const answered = await answer(channel, /^asking/);
    expect(answered.content).not.toContain('denied');
    expect(press.answeredWith).toBe(6);
  });

  it('refuses a press by someone not allowed, telling only them', async () => {
    const channel = newChannel('strangers');
    fake().send({ user: ADA, channel, text: '/spawn "sleep:5 say:slow"', mentionBot: true });
    const started = await answer(channel, /^🚀 #1 started/);
    const stop = buttonsOf(started)[0]!;
    fake().addMember(STRANGER, 'Eve');
    fake().pressButton({ user: STRANGER, message: started.id, customId: stop.custom_id! });
    const told = await fake().waitFor(() =>
      fake()
        .messages(channel)
        .find((m) => m.ephemeralTo === STRANGER),
    );
    expect(told.content).not.toBe('');
  });

  it('takes a file sent with a message into the prompt', async () => {
    const channel = newChannel('files-in');
    fake().send({
      user: ADA,
      channel,
      text: 'say:read-it',
      mentionBot: true,
      files: [{ filename: 'build.log', bytes: 'ERROR at line 3', contentType: 'text/plain' }],
    });
    await answer(channel, /^read-it$/);
    const prompt = (await prompts()).find((p) => p.includes('say:read-it'))!;
    const path = /(\S*build\.log)/.exec(prompt)?.[1];
    expect(path, prompt).toBeDefined();
    expect(await readFile(join(world.workdir, path!), 'utf8')).toBe('ERROR at line 3');
  });

  it('sends a file from the working directory as an attachment', async () => {
    const channel = newChannel('files-out');
    await mkdir(join(world.workdir, 'out'), { recursive: true });
    await writeFile(join(world.workdir, 'out', 'report.md'), '# Report\n');
    fake().send({ user: ADA, channel, text: '/file get out/report.md', mentionBot: true });
    const sent = await fake().waitFor(
      () =>
        fake()
          .botMessages(channel)
          .find((m) => m.attachments.some((a) => a.filename === 'report.md')),
      20_000,
    );
    expect(fake().fileBytes(sent.attachments[0]!.id)?.toString()).toBe('# Report\n');
  });

  it('splits a long answer into messages of at most 2,000 characters, in order, cut between paragraphs', async () => {
    const channel = newChannel('long');
    fake().send({ user: ADA, channel, text: 'long:7000', mentionBot: true });
    const last = paragraphsIn(7000);
    await fake().waitFor(
      () =>
        fake()
          .botMessages(channel)
          .some((m) => m.content.includes(`Paragraph ${last}.`)),
      30_000,
    );
    const parts = fake()
      .botMessages(channel)
      .filter((m) => m.content.includes('Paragraph'));
    for (const part of parts) expect([...part.content].length).toBeLessThanOrEqual(2000);
    const numbers = parts.flatMap((p) => [...p.content.matchAll(/Paragraph (\d+)\./g)].map((m) => Number(m[1])));
    expect(numbers).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(parts.length).toBeGreaterThanOrEqual(4);
    expect(fake().calls.filter((c) => c.error?.code === 50035)).toEqual([]);
  });

  it('refuses a stranger in a DM with their id written as BRIDGE_ALLOWED_USERS takes it', async () => {
    fake().send({ user: STRANGER, name: 'Eve', text: 'let me in' });
    const refusal = await answer(fake().dmOf(STRANGER), /discord:1300000000000000999/);
    expect(unescaped(refusal.content)).toMatch(/the owner can add it to BRIDGE_ALLOWED_USERS/);
  });
});
