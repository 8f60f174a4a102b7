import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSlack } from '../support/fake-slack/index.ts';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { botMessagesAfter, startSlackWorld, waitForSlackText, type SlackWorld } from '../support/slack-world.ts';

// Slack's limits met as Slack enforces them: its per-channel rate of messages (429 with
// Retry-After), and a token it refuses.
describe('Slack rate limits', () => {
  let world: SlackWorld;
  beforeAll(async () => (world = await startSlackWorld({}, { rateLimits: { postBurst: 4 } })), 60_000);
  afterAll(() => world?.stop());

  it('a burst of commands in one channel is answered whole, paced so Slack never says 429', async () => {
    const { channel, message } = world.slack.dm({ user: world.ada, text: 'say:first' });
    await waitForSlackText(world, channel, /^first/, { after: message.ts });
    for (let i = 0; i < 8; i++) world.slack.slashCommand({ channel, user: world.ada, text: 'status' });
    await world.slack.waitFor(() => botMessagesAfter(world, channel, { after: message.ts }).filter((m) => /^\*Status\*/.test(m.text)).length === 8, 40_000);
    expect(world.slack.callsTo('chat.postMessage').filter((c) => c.status === 429)).toEqual([]);
  }, 60_000);

  it('a 429 that comes anyway pauses the channel for its Retry-After, and the message goes after it: nothing is lost', async () => {
    const { channel, message } = world.slack.dm({ user: world.ada, text: 'say:warm-up' });
    await waitForSlackText(world, channel, /^warm-up/, { after: message.ts });
    world.slack.failNext('chat.postMessage', 'ratelimited', { retryAfter: 2 });
    const next = world.slack.dm({ user: world.ada, text: 'say:after-the-pause' });
    await waitForSlackText(world, channel, /^after-the-pause/, { after: next.message.ts, timeoutMs: 30_000 });
    const posts = world.slack.callsTo('chat.postMessage').filter((c) => c.params.channel === channel);
    const refused = posts.findIndex((c) => c.status === 429);
    expect(refused).toBeGreaterThanOrEqual(0);
    const retried = posts[refused + 1]!;
    expect(retried.ok).toBe(true);
    expect(retried.time - posts[refused]!.time).toBeGreaterThanOrEqual(1900);
  }, 60_000);
});

describe('a Slack token Slack refuses', () => {
  let slack: FakeSlack;
  beforeAll(async () => (slack = await FakeSlack.start()));
  afterAll(() => slack?.close());

  it.each([
    ['SLACK_BOT_TOKEN', { SLACK_BOT_TOKEN: 'xoxb-not-the-token' }],
    ['SLACK_APP_TOKEN', { SLACK_APP_TOKEN: 'xapp-not-the-token' }],
  ])(
    '%s: the start stops with one line naming Slack and the variable',
    async (variable, wrong) => {
      const data = await tempDir('bridge-data-');
      const bridge = startBridgeProcess({
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_APP_TOKEN: slack.appToken,
        SLACK_API_URL: slack.apiUrl,
        BRIDGE_ALLOWED_USERS: 'slack:U0ADA',
        BRIDGE_DATA_DIR: data.path,
        ...wrong,
      });
      const { code } = await bridge.exited;
      await data.remove();
      expect(code).toBe(78);
      const fatal = bridge.logEntries().filter((e) => e.level === 'fatal');
      expect(fatal).toHaveLength(1);
      expect(fatal[0]!.msg).toMatch(new RegExp(`^Slack refused ${variable} \\(invalid_auth\\)`));
      expect(bridge.stderr()).not.toContain('not-the-token');
    },
    30_000,
  );
});
