import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../support/fake-slack/index.ts';
import { botMessagesAfter, slackShown, startSlackWorld, waitForSlackText, type SlackWorld } from '../support/slack-world.ts';

// What people do in Slack, end to end: commands as `/bridge …` and `@bot …`, /spawn and its
// announcement, an approval's buttons, files both ways, long answers.
let world: SlackWorld;
beforeAll(async () => (world = await startSlackWorld({ BRIDGE_PERMISSION_MODE: 'ask' })), 60_000);
afterAll(() => world?.stop());

const mention = () => `<@${world.slack.botUserId}>`;

describe('Slack commands', () => {
  it('/bridge status answers in the channel; an unknown word is refused at once, privately', async () => {
    const dm = world.slack.dm({ user: world.ada, text: 'say:hello' }).channel;
    await waitForSlackText(world, dm, /^hello/);
    const status = world.slack.slashCommand({ channel: dm, user: world.ada, text: 'status' });
    await waitForSlackText(world, dm, /claude/i, { timeoutMs: 20_000 }).then(() => world.slack.waitFor(() => status.ackedAt));
    expect(world.slack.callsTo('chat.postMessage').filter((c) => c.params.channel === dm).length).toBeGreaterThan(1);
    const refused = world.slack.slashCommand({ channel: dm, user: world.ada, text: 'frobnicate now' });
    await world.slack.waitFor(() => refused.ackedAt);
    expect(String(refused.ackPayload?.text)).toMatch(/`frobnicate` is no command of the bridge/);
  });

  it('/bridge in a channel the bot is not in says, privately and at once, to invite it', async () => {
    const elsewhere = world.slack.addChannel({ name: 'elsewhere', members: [world.ada], botIsMember: false }).id;
    const command = world.slack.slashCommand({ channel: elsewhere, user: world.ada, text: 'status' });
    await world.slack.waitFor(() => command.ackedAt);
    expect(String(command.ackPayload?.text)).toMatch(/^The bridge is not in this channel: invite it \(`\/invite @bridge`\)/);
    expect(command.ackMs).toBeLessThan(3000);
  });

  it('@bot spawn "…" in a thread starts a run there and announces it there once', async () => {
    const { message } = world.slack.say({ channel: world.general, user: world.ada, text: `${mention()} spawn "sleep:0.5 say:found-it"` });
    const started = await waitForSlackText(world, world.general, /^🚀 #\d+ started/, { thread: message.ts });
    expect(world.slack.buttonsOf(started).map((b) => b.text)).toEqual([expect.stringMatching(/^⏹ Stop #\d+$/)]);
    const done = await waitForSlackText(world, world.general, /^✅ #\d+/, { thread: message.ts });
    expect(slackShown(done)).toContain('found-it');
    expect(done.threadTs).toBe(message.ts);
  });
});

describe('Slack buttons', () => {
  it("an approval's Allow button, pressed, lets the tool run; the answer to the press is shown to the presser alone", async () => {
    const { channel, message } = world.slack.dm({ user: world.ada, text: 'tools:1 say:allowed-it' });
    const question = await world.slack.waitFor(
      () =>
        botMessagesAfter(world, channel, { after: message.ts }).find((m) => /Bash/.test(m.text) && world.slack.buttonsOf(m).some((b) => /Allow/.test(b.text))),
      20_000,
    );
    const allow = world.slack.buttonsOf(question).find((b) => /Allow/.test(b.text))!;
    const press = world.slack.pressButton({ channel, ts: question.ts, user: world.ada, text: allow.text });
    const answer = await waitForSlackText(world, channel, /^allowed-it/, { after: message.ts });
    expect(slackShown(answer)).not.toContain('denied');
    expect(press.ackMs).toBeLessThan(3000);
  });
});

describe('Slack files', () => {
  it('a file sent in a DM reaches the agent byte for byte, fetched with the bot token', async () => {
    const { channel, message } = world.slack.dm({
      user: world.ada,
      text: 'say:read-it',
      files: [{ name: 'notes.txt', content: 'the notes', mimetype: 'text/plain' }],
    });
    await waitForSlackText(world, channel, /^read-it/, { after: message.ts });
    const prompt = (await world.cli.invocations()).find((i) => i.prompt.startsWith('say:read-it'))!.prompt;
    expect(prompt).toMatch(/\.bridge\/inbox\/notes\.txt/);
    expect(await readFile(join(world.workdir, '.bridge', 'inbox', 'notes.txt'), 'utf8')).toBe('the notes');
  });

  it('/bridge file get sends a file with files.uploadV2', async () => {
    await mkdir(join(world.workdir, 'out'), { recursive: true });
    await writeFile(join(world.workdir, 'out', 'report.md'), '# Report\n');
    const { channel, message } = world.slack.dm({ user: world.ada, text: 'say:ready' });
    await waitForSlackText(world, channel, /^ready/, { after: message.ts });
    world.slack.slashCommand({ channel, user: world.ada, text: 'file get out/report.md' });
    const shared = await world.slack.waitFor(() => botMessagesAfter(world, channel, { after: message.ts }).find((m) => m.files.length));
    expect(world.slack.fileContent(shared.files[0]!)?.toString()).toBe('# Report\n');
  });
});

describe('Slack long answers', () => {
  it('an answer longer than a message is cut into messages Slack takes, none refused', async () => {
    const { channel, message } = world.slack.dm({ user: world.ada, text: 'long:9000' });
    const answer = () => botMessagesAfter(world, channel, { after: message.ts });
    await world.slack.waitFor(
      () =>
        answer().length >= 3 &&
        answer()
          .map((m) => m.text)
          .join('\n').length > 9000,
      30_000,
    );
    const sent = world.slack.calls.filter((c) => c.method.startsWith('chat.') && c.params.channel === channel);
    expect(sent.every((c) => c.ok)).toBe(true);
    expect(Math.max(...answer().map((m) => m.text.length))).toBeLessThanOrEqual(3000);
    expect(world.slack.calls.some((c) => c.error === 'msg_too_long' || c.error === 'invalid_blocks')).toBe(false);
    expect(LIMITS.sectionText).toBe(3000);
  });

  it('a very long answer goes as a file with its opening as the comment', async () => {
    const { channel, message } = world.slack.dm({ user: world.ada, text: 'long:20000' });
    const shared = await world.slack.waitFor(() => botMessagesAfter(world, channel, { after: message.ts }).find((m) => m.files.length), 30_000);
    expect(shared.text).toMatch(/Full answer \([\d,]+ characters\) attached/);
    expect(world.slack.fileContent(shared.files[0]!)!.length).toBeGreaterThan(12_000);
  });
});
