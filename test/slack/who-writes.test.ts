import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botMessagesAfter, slackShown, startSlackWorld, waitForSlackText, type SlackWorld } from '../support/slack-world.ts';

// Who the bridge takes a Slack message from: people of the installed workspace (another
// workspace's only when named with their team), never an app or a bot however it is marked;
// and an event, command or press Slack sends again after a restart is taken once.
const OTHER_TEAM = 'T0OTHER';
let world: SlackWorld;
let carol: string;
beforeAll(async () => {
  world = await startSlackWorld();
  // Carol writes from another workspace, through a channel shared with it, and is named with her team.
  carol = world.slack.addUser({ name: 'carol', realName: 'Carol of Elsewhere' }).id;
  world.env.BRIDGE_ALLOWED_USERS += `,slack:${OTHER_TEAM}/${carol}`;
  await world.restart();
}, 120_000);
afterAll(() => world?.stop());

/** A message event as Slack would send it, with fields the twin's people never set. */
function rawMessage(channel: string, user: string, text: string, extra: Record<string, unknown>) {
  const ts = `${Math.floor(Date.now() / 1000)}.${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
  return world.slack.socket.push('events_api', {
    team_id: 'T0FAKE',
    type: 'event_callback',
    event_id: `Ev${Math.random().toString(36).slice(2)}`,
    event: { type: 'message', channel, channel_type: 'im', user, text, ts, event_ts: ts, ...extra },
  });
}

describe('Slack: who a message is from', () => {
  it('a message marked as an app’s or a bot’s (bot_profile, app_id, bot_message) starts nothing; a person’s after it does', async () => {
    const { channel, message } = world.slack.dm({ user: world.ada, text: 'say:first' });
    await waitForSlackText(world, channel, /^first/, { after: message.ts });
    rawMessage(channel, world.ada, 'say:from-a-bot-profile', { bot_profile: { id: 'B0OTHER', name: 'other' } });
    rawMessage(channel, world.ada, 'say:from-an-app', { app_id: 'A0OTHER' });
    rawMessage(channel, world.ada, 'say:a-bot-message', { subtype: 'bot_message' });
    rawMessage(channel, world.slack.botUserId, 'say:from-myself', {});
    const after = world.slack.dm({ user: world.ada, text: 'say:a-person' });
    await waitForSlackText(world, channel, /^a-person/, { after: after.message.ts });
    const prompts = (await world.cli.invocations()).map((i) => i.prompt);
    expect(prompts.filter((p) => /from-a-bot-profile|from-an-app|a-bot-message|from-myself/.test(p))).toEqual([]);
  });

  it('a person of another workspace is not the person of this one with the same id: refused, shown with their team', async () => {
    const { channel } = world.slack.dm({ user: world.ada, text: 'say:warm' });
    await waitForSlackText(world, channel, /^warm/);
    rawMessage(channel, world.ada, 'say:from-elsewhere', { user_team: OTHER_TEAM, team: OTHER_TEAM });
    await waitForSlackText(world, channel, new RegExp(`slack:${OTHER_TEAM}/${world.ada}`));
    expect((await world.cli.invocations()).some((i) => i.prompt.includes('from-elsewhere'))).toBe(false);
  });

  it('a person of another workspace named with their team is taken', async () => {
    const channel = world.slack.dm({ user: carol, text: 'say:carol-warm' }).channel;
    // Carol as a person of this workspace is a stranger, refused with her plain id.
    await waitForSlackText(world, channel, new RegExp(`slack:${carol}\\b`));
    rawMessage(channel, carol, 'say:carol-from-her-team', { user_team: OTHER_TEAM });
    await waitForSlackText(world, channel, /^carol-from-her-team/, { timeoutMs: 30_000 });
  });
});

describe('Slack: what is sent again', () => {
  it('a /bridge command Slack sends again after a restart runs once', async () => {
    const dm = world.slack.dm({ user: world.ada, text: 'say:hi' });
    await waitForSlackText(world, dm.channel, /^hi/, { after: dm.message.ts });
    const spawn = world.slack.slashCommand({ channel: dm.channel, user: world.ada, text: 'spawn --label once-only "say:ran"' });
    await waitForSlackText(world, dm.channel, /^✅ #\d+ once-only/, { after: dm.message.ts, timeoutMs: 30_000 });
    await world.restart();
    world.slack.socket.redeliver(spawn);
    await world.slack.waitFor(() => spawn.ackedAt, 20_000);
    // Commands of a chat are handled in order: once `status` is answered, the redelivery was handled before it.
    const marker = world.slack.dm({ user: world.ada, text: 'say:after-restart' });
    await waitForSlackText(world, dm.channel, /^after-restart/, { after: marker.message.ts, timeoutMs: 30_000 });
    world.slack.slashCommand({ channel: dm.channel, user: world.ada, text: 'status' });
    await waitForSlackText(world, dm.channel, /claude/i, { after: marker.message.ts, timeoutMs: 30_000 });
    const shown = botMessagesAfter(world, dm.channel, { after: dm.message.ts }).map(slackShown);
    expect(shown.filter((text) => /^✅ #\d+ once-only/.test(text))).toHaveLength(1);
    expect(shown.filter((text) => /^🚀 #\d+ started/.test(text))).toHaveLength(1);
  });
});
