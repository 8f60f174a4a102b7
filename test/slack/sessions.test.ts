import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botMessagesAfter, slackShown, startSlackWorld, waitForSlackText, type SlackWorld } from '../support/slack-world.ts';

// A Slack thread as a session over time: steered while it works, stopped by its button, still
// the bot's after a restart and after Slack asks the bridge to reconnect.
let world: SlackWorld;
beforeAll(async () => (world = await startSlackWorld()), 60_000);
afterAll(() => world?.stop());

const mention = () => `<@${world.slack.botUserId}>`;

describe('a Slack thread', () => {
  it('a reply without a mention while the turn works joins it (steering)', async () => {
    const { message } = world.slack.say({ channel: world.general, user: world.ada, text: `${mention()} tools:10 pace:300 first until-heard` });
    // Working: its first tool call is shown.
    await world.slack.waitFor(() => botMessagesAfter(world, world.general, { thread: message.ts }).find((m) => /Bash/.test(m.text)), 20_000);
    const steer = world.slack.say({ channel: world.general, user: world.ada, text: 'also check the tests', threadTs: message.ts }).message;
    const done = await waitForSlackText(world, world.general, /^echo: tools:10 pace:300 first/, { thread: message.ts, timeoutMs: 30_000 });
    expect(slackShown(done)).toContain('heard: also check the tests');
    // The steer is marked as taken: 👀, as Slack's :eyes:.
    await world.slack.waitFor(() => world.slack.message(world.general, steer.ts)!.reactions.some((r) => r.name === 'eyes'), 10_000);
  });

  it("shows the agent at work in the thread's status, and takes it away with the answer", async () => {
    const { message } = world.slack.say({ channel: world.general, user: world.ada, text: `${mention()} tools:6 pace:300 say:status-shown` });
    const statuses = () => world.slack.threadStatuses(world.general, message.ts);
    await world.slack.waitFor(() => statuses().at(-1) === 'is working…', 20_000);
    await waitForSlackText(world, world.general, /^status-shown/, { thread: message.ts });
    await world.slack.waitFor(() => statuses().at(-1) === '', 10_000);
    expect(statuses()).toEqual(['is working…', '']);
  });

  it("its progress message's Stop button stops the turn", async () => {
    const { message } = world.slack.say({ channel: world.general, user: world.ada, text: `${mention()} tools:40 pace:500 say:never` });
    const progress = await world.slack.waitFor(
      () => botMessagesAfter(world, world.general, { thread: message.ts }).find((m) => world.slack.buttonsOf(m).some((b) => /Stop/.test(b.text))),
      20_000,
    );
    const stop = world.slack.buttonsOf(progress).find((b) => /Stop/.test(b.text))!;
    world.slack.pressButton({ channel: world.general, ts: progress.ts, user: world.ada, text: stop.text });
    await world.slack.waitFor(
      () =>
        /⏹/.test(world.slack.message(world.general, progress.ts)?.text ?? '') ||
        botMessagesAfter(world, world.general, { thread: message.ts }).some((m) => /⏹/.test(m.text)),
      20_000,
    );
    expect(botMessagesAfter(world, world.general, { thread: message.ts }).some((m) => /^never/.test(slackShown(m)))).toBe(false);
  });

  it("is still the bot's after a restart: a reply there without a mention is answered in the same session", async () => {
    const { message } = world.slack.say({ channel: world.general, user: world.ada, text: `${mention()} say:before-restart` });
    await waitForSlackText(world, world.general, /^before-restart/, { thread: message.ts });
    await world.restart();
    await world.slack.waitFor(() => world.slack.socket.openConnections === 1, 20_000);
    world.slack.say({ channel: world.general, user: world.ada, text: 'after the restart', threadTs: message.ts });
    await waitForSlackText(world, world.general, /^echo: after the restart \(turn 2\)/, { thread: message.ts });
  }, 60_000);

  it('goes on after Slack asks the bridge to reconnect (refresh_requested)', async () => {
    const before = world.slack.socket.connections;
    world.slack.disconnect();
    await world.slack.waitFor(() => world.slack.socket.connections > before && world.slack.socket.openConnections === 1, 20_000);
    const { channel, message } = world.slack.dm({ user: world.ada, text: 'say:reconnected' });
    await waitForSlackText(world, channel, /^reconnected/, { after: message.ts });
  });

  it('a command Slack sends again (it missed the ack) runs once, not twice', async () => {
    const { channel, message } = world.slack.dm({ user: world.ada, text: 'say:ready' });
    await waitForSlackText(world, channel, /^ready/, { after: message.ts });
    const command = world.slack.slashCommand({ channel, user: world.ada, text: 'spawn "say:spawned-once"' });
    await world.slack.waitFor(() => command.ackedAt);
    world.slack.socket.redeliver(command);
    await world.slack.waitFor(() => command.ackedAt);
    await waitForSlackText(world, channel, /spawned-once/, { after: message.ts, timeoutMs: 30_000 });
    const marker = world.slack.dm({ user: world.ada, text: 'say:marker' });
    await waitForSlackText(world, channel, /^marker/, { after: marker.message.ts });
    expect(botMessagesAfter(world, channel, { after: message.ts }).filter((m) => /started/.test(m.text))).toHaveLength(1);
    expect((await world.cli.invocations()).filter((i) => i.prompt.includes('say:spawned-once'))).toHaveLength(1);
  }, 60_000);

  it('a stranger is refused and told their id as allowlists write it (slack:U…)', async () => {
    const { channel, message } = world.slack.dm({ user: world.bob, text: 'say:hi' });
    const refusal = await world.slack.waitFor(() => botMessagesAfter(world, channel, { after: message.ts })[0], 20_000);
    expect(refusal.text).toContain(`slack:${world.bob}`);
  });
});
