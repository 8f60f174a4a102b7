import { ADA } from '../discord-world.ts';
import { FakeDiscord, readable, type MessageRecord } from '../fake-discord/index.ts';
import { writtenWith, type ChatAppTwin, type ChatOnApp, type ShownMessage } from './chat-app.ts';

/**
 * Discord's twin, the fake Discord, as the contract suite drives it: a group is a server
 * channel (messages there mention the bot), its threads are Discord threads (every message
 * reaches the bot), commands are application commands.
 */
export async function discordTwin(): Promise<ChatAppTwin> {
  const discord = await FakeDiscord.start();
  discord.addMember(ADA, 'Ada');
  const channels = new Map<string, string>();
  const once = (key: string, make: () => string) => channels.get(key) ?? channels.set(key, make()).get(key)!;
  let identifies = 0;

  const names = new Map<string, string>([[ADA, 'Ada']]);
  const chat = (channel: () => string, mention: boolean, user = ADA): ChatOnApp => {
    const name = names.get(user)!;
    const shown = () =>
      discord
        .botMessages(channel())
        .filter((m) => m.ephemeralTo === undefined)
        .map((m) => shownMessage(discord, m));
    return {
      get id() {
        return channel();
      },
      say: async (text) => void discord.send({ user, name, channel: channel(), text, mentionBot: mention }),
      sendFile: async ({ name, bytes, caption }) =>
        void discord.send({
          user,
          name,
          channel: channel(),
          text: caption ?? '',
          mentionBot: mention,
          files: [{ filename: name, bytes, contentType: 'text/plain' }],
        }),
      command: async (name, args) => void discord.runCommand({ user, name, channel: channel(), command: name, ...(args !== undefined ? { text: args } : {}) }),
      written: writtenWith(),
      shown: async () => shown(),
      waitFor: (pattern, timeoutMs = 20_000) => discord.waitFor(() => shown().find((message) => pattern.test(message.text)), timeoutMs),
      press: async (message, label) => {
        const record = discord.message(message.id);
        const button = (record?.components as { components: { label: string; custom_id?: string }[] }[] | undefined)
          ?.flatMap((row) => row.components)
          .find((b) => label.test(b.label) && b.custom_id);
        if (!button) throw new Error(`no button ${label} on message ${message.id}: ${message.buttons.join(', ')}`);
        discord.pressButton({ user, name, message: message.id, customId: button.custom_id! });
      },
    };
  };

  return {
    transport: 'discord',
    env: { DISCORD_BOT_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl },
    owner: `discord:${ADA}`,
    direct: () => chat(() => discord.dmOf(ADA), false),
    addPerson: (name) => {
      const id = String(BigInt(ADA) + BigInt(names.size));
      discord.addMember(id, name);
      names.set(id, name);
      return `discord:${id}`;
    },
    group: (n) => {
      const channel = () => once(`group-${n}`, () => discord.addChannel(`group-${n}`));
      return {
        ...chat(channel, true),
        as: (person) => chat(channel, true, person.slice('discord:'.length)),
        thread: (m) => chat(() => once(`group-${n}-thread-${m}`, () => discord.startThread({ user: ADA, channel: channel(), name: `thread ${m}` })), false),
      };
    },
    calls: () => {
      const byToken = new Map(discord.interactions.map((i) => [i.token, i.channelId]));
      return discord.calls
        .filter((call) => !NOT_COUNTED.has(call.route))
        .map((call) => {
          const chat = /^\/channels\/(\d+)/.exec(call.path)?.[1] ?? byToken.get(/^\/(?:webhooks\/\d+|interactions\/\d+)\/([^/]+)/.exec(call.path)?.[1] ?? '');
          const text = call.body?.content;
          return { method: call.route, ...(chat ? { chat } : {}), ...(typeof text === 'string' ? { text: readable(text) } : {}), at: call.time };
        });
    },
    // Each start identifies anew: events sent before then would reach no one.
    async connected() {
      const expected = ++identifies;
      await discord.waitFor(() => discord.gatewayOps.filter((op) => op.op === 2).length >= expected && discord.liveSessions === 1, 30_000);
    },
    stop: () => discord.close(),
  };
}

/** Learning who the bot is and where its gateway is, and registering its commands: its keeping in touch, not what a turn costs. */
const NOT_COUNTED = new Set(['GET /gateway/bot', 'GET /users/@me', 'GET /applications/@me', 'PUT /applications/:app/commands']);

/** As a reader sees it: its Markdown rendered away, without the turn's stats line under an answer. */
function shownMessage(discord: FakeDiscord, message: MessageRecord): ShownMessage {
  return {
    id: message.id,
    text: readable(message.content).replace(/\n\n[✅❌⏹⌛] \d+:\d\d(:\d\d)? · [^\n]*$/, ''),
    buttons: (message.components as { components: { label: string }[] }[]).flatMap((row) => row.components.map((b) => b.label)),
    files: message.attachments.map((a) => ({ name: a.filename, bytes: discord.fileBytes(a.id) ?? Buffer.alloc(0) })),
    edits: message.versions.length - 1,
  };
}
