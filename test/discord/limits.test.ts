import { afterEach, describe, expect, it } from 'vitest';
import { startBridgeProcess, startDoctorProcess } from '../support/bridge-process.ts';
import { ADA, paragraphsIn, shownContent, startDiscordWorld, unescaped, type DiscordWorld } from '../support/discord-world.ts';
import { FakeDiscord } from '../support/fake-discord/index.ts';

// What Discord refuses and limits, met by the bridge as a process over real sockets.
let world: DiscordWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

describe('a restart', () => {
  it('answers what was written while the bridge was away, in order, and nothing twice', async () => {
    world = await startDiscordWorld();
    const fake = world.discord;
    const channel = fake.addChannel('away');
    fake.send({ user: ADA, text: 'say:before' });
    fake.send({ user: ADA, channel, text: 'say:in-channel-before', mentionBot: true });
    const dm = fake.dmOf(ADA);
    await fake.waitFor(() => fake.botMessages(dm).find((m) => shownContent(m) === 'before'), 20_000);
    await fake.waitFor(() => fake.botMessages(channel).find((m) => shownContent(m) === 'in-channel-before'), 20_000);
    world.bridge.kill('SIGTERM');
    await world.bridge.exited;
    // Nobody is connected: the gateway gives these to no one, as Discord would.
    fake.send({ user: ADA, text: 'say:while-away-1' });
    fake.send({ user: ADA, text: 'say:while-away-2' });
    fake.send({ user: ADA, channel, text: 'not for the bot' });
    fake.send({ user: ADA, channel, text: 'say:channel-while-away', mentionBot: true });
    const restarted = startBridgeProcess(world.env);
    world.bridge = restarted;
    await restarted.waitForLog(/connected to Discord's gateway/, 30_000);
    const second = await fake.waitFor(() => fake.botMessages(dm).find((m) => shownContent(m) === 'while-away-2'), 20_000);
    const first = fake.botMessages(dm).find((m) => shownContent(m) === 'while-away-1')!;
    expect(BigInt(first.id) < BigInt(second.id)).toBe(true);
    await fake.waitFor(() => fake.botMessages(channel).find((m) => shownContent(m) === 'channel-while-away'), 20_000);
    const prompts = (await world.cli.invocations()).map((i) => i.prompt);
    expect(prompts.filter((p) => p === 'say:before')).toHaveLength(1);
    expect(prompts).not.toContain('not for the bot');
    expect(fake.botMessages(dm).filter((m) => shownContent(m) === 'before')).toHaveLength(1);
  });
});

describe('Discord limits', () => {
  it('survives 429s with nothing lost: discord.js waits them out and sends again', async () => {
    world = await startDiscordWorld({}, { rateLimits: true });
    const fake = world.discord;
    const channel = fake.addChannel('busy');
    fake.refuseNext(3, 400);
    fake.send({ user: ADA, channel, text: 'long:7000', mentionBot: true });
    const last = paragraphsIn(7000);
    await fake.waitFor(() => fake.botMessages(channel).some((m) => m.content.includes(`Paragraph ${last}.`)), 40_000);
    const parts = fake.botMessages(channel).filter((m) => m.content.includes('Paragraph'));
    const numbers = parts.flatMap((p) => [...p.content.matchAll(/Paragraph (\d+)\./g)].map((m) => Number(m[1])));
    expect(numbers).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    const refused = fake.calls.filter((c) => c.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(world.bridge.log()).not.toMatch(/error: /);
  });

  it('stops the start on a refused token with one line naming Discord', async () => {
    const fake = await FakeDiscord.start();
    try {
      const wrong = `${fake.token.slice(0, -6)}WRONG0`;
      const bridge = startBridgeProcess({ DISCORD_BOT_TOKEN: wrong, DISCORD_API_URL: fake.apiUrl, BRIDGE_ALLOWED_USERS: `discord:${ADA}` });
      const { code } = await bridge.exited;
      expect(code).toBe(78);
      const lines = bridge
        .log()
        .split('\n')
        .filter((line) => /Discord refused/.test(line));
      expect(lines).toEqual([
        expect.stringMatching(/Discord refused DISCORD_BOT_TOKEN \(401 Unauthorized\): copy the bot's token from the Discord Developer Portal/),
      ]);
      expect(bridge.stderr()).not.toContain(wrong);
      expect(fake.gatewayConnections).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it('without the Message Content intent: connects without asking for it, says so at start and once in the chat, and mentions still work', async () => {
    world = await startDiscordWorld({}, { messageContentIntent: false });
    const fake = world.discord;
    expect(world.bridge.log()).toMatch(/Message Content intent is off/);
    const identify = fake.gatewayOps.find((op) => op.op === 2)?.d as { intents: number };
    expect(identify.intents & (1 << 15)).toBe(0);
    const channel = fake.addChannel('no-content');
    fake.send({ user: ADA, channel, text: 'say:mentioned', mentionBot: true });
    await fake.waitFor(() => fake.botMessages(channel).find((m) => shownContent(m) === 'mentioned'), 20_000);
    const thread = fake.startThread({ user: ADA, channel, name: 'quiet' });
    fake.send({ user: ADA, channel: thread, text: 'this text is hidden from the bot' });
    const notice = await fake.waitForBotMessage(thread, (m) => /Message Content/.test(m.content), 20_000);
    expect(unescaped(notice.content)).toMatch(/Privileged Gateway Intents → turn on Message Content Intent/);
    fake.send({ user: ADA, channel: thread, text: 'hidden again' });
    fake.send({ user: ADA, channel: thread, text: 'say:still-here', mentionBot: true });
    await fake.waitFor(() => fake.botMessages(thread).find((m) => shownContent(m) === 'still-here'), 20_000);
    expect(fake.botMessages(thread).filter((m) => /Message Content/.test(m.content))).toHaveLength(1);
    expect(world.bridge.log().match(/reached the bot without its text/g)).toHaveLength(1);
  });

  it('stops with one line naming Discord when Discord closes the gateway for good (the intent turned off while it ran)', async () => {
    world = await startDiscordWorld();
    world.discord.setMessageContentIntent(false);
    world.discord.dropGateway(4014);
    const { code } = await world.bridge.exited;
    expect(code).toBe(78); // EX_CONFIG: fix the setup, do not restart
    expect(world.bridge.stderr()).toMatch(
      /Discord closed the gateway \(4014 Disallowed intents\): the Message Content intent was turned off; Discord Developer Portal → your application → Bot → Privileged Gateway Intents/,
    );
  });

  it('has the doctor say whether the Message Content intent is on, and give the invite link', async () => {
    const fake = await FakeDiscord.start({ messageContentIntent: false });
    try {
      const doctor = startDoctorProcess({ DISCORD_BOT_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, TELEGRAM_BOT_TOKEN: '' });
      await doctor.exited;
      const out = doctor.stdout();
      expect(out).toMatch(/Discord token: @bridge \(id 1300000000000000001\)/);
      expect(out).toMatch(/! Message Content intent: off.*Privileged Gateway Intents → turn on Message Content Intent/);
      expect(out).toMatch(
        /Discord invite: https:\/\/discord\.com\/oauth2\/authorize\?client_id=1300000000000000001&scope=bot\+applications\.commands&permissions=\d+/,
      );
    } finally {
      await fake.close();
    }
  });
});
