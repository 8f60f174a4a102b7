import { REST } from 'discord.js';
import { AttachmentBuilder, Client, DiscordAPIError, Events, GatewayIntentBits, Partials, Routes, type Interaction, type Message } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeDiscord, Intent } from './support/fake-discord/index.ts';

// The fake is worth something only if the real client accepts it: every test below talks to it
// through discord.js over real HTTP and a real WebSocket.

const ADA = '1300000000000009001';
const INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent];

let fake: FakeDiscord;
let client: Client | undefined;

beforeEach(async () => {
  fake = await FakeDiscord.start();
  fake.addMember(ADA, 'Ada');
});

afterEach(async () => {
  await client?.destroy();
  client = undefined;
  await fake.close();
});

async function login(options: { intents?: GatewayIntentBits[]; fake?: FakeDiscord; token?: string } = {}): Promise<Client> {
  const on = options.fake ?? fake;
  client = new Client({ intents: options.intents ?? INTENTS, partials: [Partials.Channel], rest: { api: on.apiUrl } });
  const ready = new Promise<void>((resolve) => client!.once(Events.ClientReady, () => resolve()));
  await client.login(options.token ?? on.token);
  await ready;
  return client;
}

/** What the client did is not the fake's to signal: asked again until true. */
async function until<T>(check: () => T | undefined | false | 0, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms: ${check.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function rest(token = fake.token): REST {
  return new REST({ api: fake.apiUrl, retries: 0 }).setToken(token);
}

describe('the gateway', () => {
  it('is found through /gateway/bot, sends hello, takes identify and heartbeats, and makes the guild known', async () => {
    const bot = await login();
    expect(bot.user?.id).toBe(fake.botId);
    expect(bot.application?.id).toBe(fake.applicationId);
    expect(bot.guilds.cache.get(fake.guild)?.name).toBe('Team');
    expect(bot.channels.cache.get(fake.general)?.isTextBased()).toBe(true);
    // @discordjs/ws appends its own query to the address /gateway/bot gave.
    expect(fake.gatewayConnections[0]).toMatch(/^\/\?v=10&encoding=json$/);
    const identify = fake.gatewayOps.find((op) => op.op === 2)?.d as { intents: number };
    expect(identify.intents & Intent.MessageContent).toBeTruthy();
  });

  it('closes 4004 on a bad token: discord.js rejects the login', async () => {
    const wrong = `${fake.token.slice(0, -4)}XXXX`;
    // The REST call before the gateway already refuses it.
    await expect(login({ token: wrong })).rejects.toThrow(/401|Unauthorized|token/i);
  });

  it('closes 4014 when the Message Content intent is asked for and not granted', async () => {
    const strict = await FakeDiscord.start({ messageContentIntent: false });
    try {
      await expect(login({ fake: strict })).rejects.toThrow(/disallowed intent|4014/i);
    } finally {
      await client?.destroy();
      client = undefined;
      await strict.close();
    }
  });

  it('sends guild messages without their content to a bot without Message Content, but keeps DMs and mentions', async () => {
    const bot = await login({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages] });
    const seen: Message[] = [];
    bot.on(Events.MessageCreate, (m) => void seen.push(m));
    fake.send({ user: ADA, channel: fake.general, text: 'plain words' });
    fake.send({ user: ADA, channel: fake.general, text: 'to the bot', mentionBot: true });
    fake.send({ user: ADA, text: 'in private' });
    await until(() => seen.length === 3);
    expect(seen.map((m) => m.content)).toEqual(['', `<@${fake.botId}> to the bot`, 'in private']);
    expect(seen[2]!.channel.isDMBased()).toBe(true);
  });

  it('answers heartbeats, and a dropped connection resumes with what was missed', async () => {
    const quick = await FakeDiscord.start({ heartbeatIntervalMs: 200 });
    try {
      const bot = await login({ fake: quick });
      await quick.waitFor(() => quick.gatewayOps.filter((op) => op.op === 1).length >= 2, 5000);
      const seen: string[] = [];
      bot.on(Events.MessageCreate, (m) => void seen.push(m.content));
      quick.dropGateway();
      quick.send({ user: ADA, text: 'while away' });
      await until(() => seen.includes('while away'), 10_000);
      expect(quick.gatewayOps.some((op) => op.op === 6)).toBe(true);
      expect(quick.gatewayConnections.length).toBe(2);
    } finally {
      await client?.destroy();
      client = undefined;
      await quick.close();
    }
  });

  it('dispatches threads people open, and their messages', async () => {
    const bot = await login();
    const seen: Message[] = [];
    bot.on(Events.MessageCreate, (m) => void seen.push(m));
    const thread = fake.startThread({ user: ADA, name: 'refactor' });
    await until(() => bot.channels.cache.get(thread));
    fake.send({ user: ADA, channel: thread, text: 'in the thread' });
    await until(() => seen.length === 1);
    const channel = seen[0]!.channel;
    expect(channel.isThread() && channel.parentId).toBe(fake.general);
  });
});

describe('the REST API', () => {
  it('refuses a bad token with 401', async () => {
    await expect(rest('bad.token.here').get(Routes.user('@me'))).rejects.toMatchObject({ status: 401 });
  });

  it("sends, edits, reacts and deletes, with the 2,000-character limit and Discord's errors", async () => {
    const bot = await login();
    const channel = await bot.channels.fetch(fake.general);
    if (!channel?.isSendable()) throw new Error('not sendable');
    const sent = await channel.send('hello');
    await sent.edit('hello again');
    await sent.react('👀');
    expect(fake.message(sent.id)).toMatchObject({ content: 'hello again', versions: ['hello', 'hello again'], reactions: ['👀'] });
    const tooLong = await channel.send('x'.repeat(2001)).catch((e: unknown) => e);
    expect(tooLong).toBeInstanceOf(DiscordAPIError);
    expect(tooLong).toMatchObject({ code: 50035, status: 400 });
    expect(String((tooLong as Error).message)).toMatch(/content.*2000 or fewer/s);
    await channel.send('x'.repeat(2000));
    await sent.delete();
    await expect(rest().patch(Routes.channelMessage(fake.general, sent.id), { body: { content: 'x' } })).rejects.toMatchObject({ code: 10008 });
    await expect(rest().post(Routes.channelMessages('1'), { body: { content: 'x' } })).rejects.toMatchObject({ code: 10003, status: 404 });
    const hidden = fake.addChannel('secret', { hidden: true });
    await expect(rest().post(Routes.channelMessages(hidden), { body: { content: 'x' } })).rejects.toMatchObject({ code: 50001, status: 403 });
  });

  it('checks components: five rows of five buttons, custom_id up to 100, label up to 80', async () => {
    const button = (id: string, label = 'ok') => ({ type: 2, style: 1, custom_id: id, label });
    const row = (n: number) => ({ type: 1, components: Array.from({ length: n }, (_, i) => button(`b${i}`)) });
    const post = (components: unknown[]) => rest().post(Routes.channelMessages(fake.general), { body: { content: 'pick', components } });
    await post(Array.from({ length: 5 }, () => row(5)));
    await expect(post([row(6)])).rejects.toMatchObject({ code: 50035 });
    await expect(post(Array.from({ length: 6 }, () => row(1)))).rejects.toMatchObject({ code: 50035 });
    await expect(post([{ type: 1, components: [button('x'.repeat(101))] }])).rejects.toMatchObject({ code: 50035 });
    await expect(post([{ type: 1, components: [button('x', 'y'.repeat(81))] }])).rejects.toMatchObject({ code: 50035 });
    await post([{ type: 1, components: [button('x'.repeat(100), 'y'.repeat(80))] }]);
  });

  it("takes attachments as multipart with payload_json, and serves people's files for download", async () => {
    const bot = await login();
    const channel = await bot.channels.fetch(fake.general);
    if (!channel?.isSendable()) throw new Error('not sendable');
    const sent = await channel.send({ content: 'a file', files: [new AttachmentBuilder(Buffer.from('report body'), { name: 'report.txt' })] });
    const attachment = sent.attachments.first()!;
    expect(attachment.name).toBe('report.txt');
    expect(fake.fileBytes(attachment.id)?.toString()).toBe('report body');
    const seen: Message[] = [];
    bot.on(Events.MessageCreate, (m) => void (m.author.id === ADA && seen.push(m)));
    fake.send({ user: ADA, text: 'here', files: [{ filename: 'notes.md', bytes: '# notes', contentType: 'text/markdown' }] });
    await until(() => seen.length);
    const file = seen[0]!.attachments.first()!;
    const response = await fetch(file.url);
    expect(await response.text()).toBe('# notes');
  });

  it('answers 429 with retry_after and the X-RateLimit headers past 5 messages in 5 s, and discord.js waits it out', async () => {
    const limited = await FakeDiscord.start({ rateLimits: { limit: 5, windowMs: 1000 } });
    try {
      const raw = await fetch(`${limited.apiUrl}/v10/channels/${limited.general}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${limited.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'one' }),
      });
      expect(raw.headers.get('x-ratelimit-limit')).toBe('5');
      expect(raw.headers.get('x-ratelimit-remaining')).toBe('4');
      expect(raw.headers.get('x-ratelimit-bucket')).toBeTruthy();
      expect(Number(raw.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(0);
      const bot = await login({ fake: limited });
      const channel = await bot.channels.fetch(limited.general);
      if (!channel?.isSendable()) throw new Error('not sendable');
      const limitedAt: unknown[] = [];
      bot.rest.on('rateLimited', (info) => void limitedAt.push(info));
      await Promise.all(Array.from({ length: 8 }, (_, i) => channel.send(`message ${i}`)));
      expect(limited.botMessages(limited.general).map((m) => m.content)).toEqual(['one', ...Array.from({ length: 8 }, (_, i) => `message ${i}`)]);
      const refused = limited.callsTo('POST /channels/:id/messages').filter((c) => c.status === 429);
      // discord.js learnt the bucket from the headers and waited before most calls; any 429 it met it retried.
      expect(limitedAt.length + refused.length).toBeGreaterThan(0);
    } finally {
      await client?.destroy();
      client = undefined;
      await limited.close();
    }
  });
});

describe('interactions', () => {
  async function withCommands(): Promise<Client> {
    const bot = await login();
    await bot.application!.commands.set([
      { name: 'status', description: 'How things stand', options: [{ type: 3, name: 'text', description: 'more', required: false }] },
    ]);
    return bot;
  }

  it('registers application commands in bulk and refuses bad names', async () => {
    await withCommands();
    expect(fake.commands.map((c) => c.name)).toEqual(['status']);
    await expect(rest().put(Routes.applicationCommands(fake.applicationId), { body: [{ name: 'Bad Name', description: 'x' }] })).rejects.toMatchObject({
      code: 50035,
    });
  });

  it('takes a deferred reply within 3 s and its follow-up edit', async () => {
    const bot = await withCommands();
    bot.on(Events.InteractionCreate, (interaction: Interaction) => {
      if (!interaction.isChatInputCommand()) return;
      void (async () => {
        await interaction.deferReply();
        await interaction.editReply(`status of ${interaction.options.getString('text')}`);
        await interaction.followUp('and one more');
      })();
    });
    const record = fake.runCommand({ user: ADA, channel: fake.general, command: 'status', text: 'all' });
    await fake.waitForBotMessage(fake.general, (m) => m.content === 'and one more');
    expect(fake.message(record.originalMessageId!)?.content).toBe('status of all');
    expect(record.answeredWith).toBe(5);
  });

  it('refuses an answer after 3 s with 10062, and a second answer with 40060', async () => {
    await withCommands();
    const late = fake.runCommand({ user: ADA, command: 'status' });
    late.createdAt -= 3001;
    const callback = (id: string, token: string) => rest().post(Routes.interactionCallback(id, token), { body: { type: 5 }, auth: false });
    await expect(callback(late.id, late.token)).rejects.toMatchObject({ code: 10062 });
    const fresh = fake.runCommand({ user: ADA, command: 'status' });
    await callback(fresh.id, fresh.token);
    await expect(callback(fresh.id, fresh.token)).rejects.toMatchObject({ code: 40060 });
  });

  it('delivers a button press with its custom_id, answered by an ephemeral follow-up', async () => {
    const bot = await login();
    const channel = await bot.channels.fetch(fake.general);
    if (!channel?.isSendable()) throw new Error('not sendable');
    const sent = await channel.send({
      content: 'allow?',
      components: [{ type: 1, components: [{ type: 2, style: 3, custom_id: 'approve:abc', label: 'Allow' }] }],
    });
    bot.on(Events.InteractionCreate, (interaction: Interaction) => {
      if (!interaction.isButton()) return;
      void (async () => {
        await interaction.deferUpdate();
        await interaction.followUp({ content: `pressed ${interaction.customId}`, flags: 64 });
      })();
    });
    const press = fake.pressButton({ user: ADA, message: sent.id, customId: 'approve:abc' });
    await fake.waitFor(() => fake.messages(fake.general).find((m) => m.content === 'pressed approve:abc'));
    expect(press.answeredWith).toBe(6);
    expect(fake.messages(fake.general).find((m) => m.content === 'pressed approve:abc')?.ephemeralTo).toBe(ADA);
  });
});

describe('guild members', () => {
  it('finds a member, and says 10007 Unknown Member of anyone else', async () => {
    await expect(rest().get(Routes.guildMember(fake.guild, ADA))).resolves.toMatchObject({ user: { id: ADA } });
    await expect(rest().get(Routes.guildMember(fake.guild, '1300000000000009999'))).rejects.toMatchObject({ code: 10007, status: 404 });
  });
});
