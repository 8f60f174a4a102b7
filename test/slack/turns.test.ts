import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackShown, startSlackWorld, waitForSlackText, type SlackWorld } from '../support/slack-world.ts';

// The bridge as a process with Slack's settings alone, through the real Bolt over real Socket
// Mode against the Slack twin: DMs, channel mentions that start a thread, replies there.
let world: SlackWorld;
beforeAll(async () => (world = await startSlackWorld()), 60_000);
afterAll(() => world?.stop());

describe('Slack', () => {
  it('answers a DM: the progress message is edited into the answer', async () => {
    const { channel } = world.slack.dm({ user: world.ada, text: 'tools:3 pace:300 say:done-in-a-DM' });
    const answer = await waitForSlackText(world, channel, /^done-in-a-DM/);
    // One message: the progress was edited (chat.update) into the answer.
    expect(world.slack.botMessages(channel)).toHaveLength(1);
    expect(answer.edits).toBeGreaterThan(0);
    expect(world.slack.callsTo('chat.update').length).toBeGreaterThan(0);
  });

  it('a mention in a channel starts a thread under it; a reply there without a mention goes on in the same session', async () => {
    const { message } = world.slack.say({ channel: world.general, user: world.ada, text: `<@${world.slack.botUserId}> say:first-answer` });
    const first = await waitForSlackText(world, world.general, /^first-answer/, { thread: message.ts });
    expect(first.threadTs).toBe(message.ts);
    // Nothing at the channel's top level.
    expect(world.slack.botMessages(world.general).filter((m) => !m.threadTs)).toEqual([]);

    world.slack.say({ channel: world.general, user: world.ada, text: 'and a follow-up', threadTs: message.ts });
    const second = await waitForSlackText(world, world.general, /^echo: and a follow-up \(turn 2\)/, { thread: message.ts });
    expect(second.threadTs).toBe(message.ts);
    // Both turns ran in one session, resumed.
    const invocations = await world.cli.invocations();
    const turns = invocations.filter((i) => i.prompt.includes('first-answer') || i.prompt.includes('a follow-up'));
    expect(new Set(turns.map((t) => t.session)).size).toBe(1);
  });

  it('a channel message neither mentioning the bot nor in its thread is not for it', async () => {
    world.slack.say({ channel: world.general, user: world.ada, text: 'say:not-for-the-bot' });
    const { message } = world.slack.say({ channel: world.general, user: world.ada, text: `<@${world.slack.botUserId}> say:marker` });
    await waitForSlackText(world, world.general, /^marker/, { thread: message.ts });
    expect(world.slack.botMessages(world.general).some((m) => /not-for-the-bot/.test(slackShown(m)))).toBe(false);
  });

  it("a reply in the bot's thread that opens by addressing someone else is left to them", async () => {
    const { message } = world.slack.say({ channel: world.general, user: world.ada, text: `<@${world.slack.botUserId}> say:thread-start` });
    await waitForSlackText(world, world.general, /^thread-start/, { thread: message.ts });
    world.slack.say({ channel: world.general, user: world.ada, text: `<@${world.bob}> say:for-bob`, threadTs: message.ts });
    world.slack.say({ channel: world.general, user: world.ada, text: 'say:for-the-bot', threadTs: message.ts });
    await waitForSlackText(world, world.general, /^for-the-bot/, { thread: message.ts });
    expect((await world.cli.invocations()).some((i) => i.prompt.includes('for-bob'))).toBe(false);
  });

  it('acknowledges every envelope within 3 s', async () => {
    await world.slack.waitFor(() => world.slack.envelopes.every((e) => e.ackedAt !== undefined));
    const slowest = Math.max(...world.slack.envelopes.map((e) => e.ackMs!));
    expect(slowest).toBeLessThan(3000);
    expect(world.slack.envelopes.every((e) => e.retries === 0)).toBe(true);
  });
});
