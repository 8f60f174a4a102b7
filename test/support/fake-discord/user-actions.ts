import type { Changes } from '../fake-telegram/changes.ts';
import { guildDispatch, messageDispatch } from './dispatches.ts';
import type { Gateway } from './gateway.ts';
import type { InteractionRecord, Interactions } from './interactions.ts';
import { ChannelType, type MessageRecord, type World } from './world.ts';

export interface ActionDeps {
  world: World;
  gateway: Gateway;
  interactions: Interactions;
  changes: Changes;
  origin: () => string;
}

export interface UserFile {
  filename: string;
  bytes: Buffer | string;
  contentType?: string;
}

export interface SendOptions {
  /** Who writes (made on first use, named `name`). */
  user: string;
  name?: string;
  /** A guild channel or thread; none: the person's DM with the bot. */
  channel?: string;
  text?: string;
  /** `<@bot>` opens the text, and the bot is among the mentions. */
  mentionBot?: boolean;
  files?: UserFile[];
  replyTo?: string;
}

/** A person writes: MESSAGE_CREATE to the bot as its intents let it see it. */
export function send(deps: ActionDeps, options: SendOptions): MessageRecord {
  const { world } = deps;
  world.user(options.user, options.name);
  const channel = options.channel ? world.channels.get(options.channel) : world.dmWith(options.user);
  if (!channel) throw new Error(`FakeDiscord: no channel ${options.channel}`);
  const text = options.text ?? '';
  const message = world.addMessage({
    channelId: channel.id,
    authorId: options.user,
    content: options.mentionBot ? `<@${world.bot.id}> ${text}` : text,
    embeds: [],
    components: [],
    attachments: (options.files ?? []).map((f) =>
      world.storeFile(channel.id, deps.origin(), {
        filename: f.filename,
        bytes: Buffer.from(f.bytes),
        contentType: f.contentType ?? 'application/octet-stream',
      }),
    ),
    mentions: options.mentionBot ? [world.bot.id] : [],
    ...(options.replyTo ? { replyTo: options.replyTo } : {}),
  });
  deps.changes.notify();
  deps.gateway.dispatch('MESSAGE_CREATE', messageDispatch(world, message));
  return message;
}

/** A person opens a thread in a guild channel (on one of its messages, or on its own): THREAD_CREATE. Returns the thread's id. */
export function startThread(deps: ActionDeps, options: { user: string; channel: string; name: string; fromMessage?: string }): string {
  const { world } = deps;
  const parent = world.channels.get(options.channel);
  if (!parent || parent.type !== ChannelType.GuildText) throw new Error(`FakeDiscord: ${options.channel} is no guild text channel`);
  const thread = {
    id: options.fromMessage ?? world.ids.next(),
    type: ChannelType.PublicThread,
    name: options.name,
    guildId: parent.guildId!,
    parentId: parent.id,
    ownerId: options.user,
    botCanSee: true,
  };
  world.channels.set(thread.id, thread);
  deps.changes.notify();
  deps.gateway.dispatch('THREAD_CREATE', guildDispatch({ ...world.channelPayload(thread), newly_created: true }));
  return thread.id;
}

/** Who acts in an interaction, as its payload says: a guild's member, or a DM's user. */
function actor(world: World, channelId: string, userId: string): Record<string, unknown> {
  const channel = world.channels.get(channelId)!;
  return channel.guildId
    ? { guild_id: channel.guildId, member: { ...world.memberPayload(channel.guildId, userId), permissions: '1071698660929' }, context: 0 }
    : { user: world.userPayload(userId), context: 1 };
}

function interaction(deps: ActionDeps, record: Omit<InteractionRecord, 'id' | 'token' | 'createdAt'>, extra: Record<string, unknown>): InteractionRecord {
  const { world } = deps;
  const full: InteractionRecord = {
    ...record,
    id: world.ids.next(),
    token: `aW50ZXJhY3Rpb24.${world.ids.next()}.${Math.random().toString(36).slice(2)}`,
    createdAt: Date.now(),
  };
  deps.interactions.add(full);
  const channel = world.channels.get(record.channelId)!;
  deps.gateway.dispatch('INTERACTION_CREATE', () => ({
    id: full.id,
    application_id: world.applicationId,
    type: full.type,
    token: full.token,
    version: 1,
    channel_id: channel.id,
    channel: world.channelPayload(channel),
    app_permissions: '1071698660929',
    locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': channel.guildId ?? record.userId },
    attachment_size_limit: 10 * 1024 * 1024,
    ...actor(world, channel.id, record.userId),
    ...extra,
  }));
  deps.changes.notify();
  return full;
}

/** A person runs an application command the bot registered, its one string option set to `text`. */
export function runCommand(deps: ActionDeps, options: { user: string; name?: string; channel?: string; command: string; text?: string }): InteractionRecord {
  const { world } = deps;
  world.user(options.user, options.name);
  const command = world.commands.find((c) => c.name === options.command);
  if (!command)
    throw new Error(`FakeDiscord: the bot registered no command /${options.command} (it has ${world.commands.map((c) => c.name).join(', ') || 'none'})`);
  const channelId = options.channel ?? world.dmWith(options.user).id;
  const option = (command.options as { name: string; type: number }[]).find((o) => o.type === 3);
  const values = options.text !== undefined && option ? [{ name: option.name, type: 3, value: options.text }] : [];
  return interaction(
    deps,
    { type: 2, channelId, userId: options.user, name: command.name },
    {
      data: { id: command.id, name: command.name, type: 1, options: values },
    },
  );
}

/** A person presses a button of a bot message: a component interaction with its custom_id. */
export function pressButton(deps: ActionDeps, options: { user: string; name?: string; message: string; customId: string }): InteractionRecord {
  const { world } = deps;
  world.user(options.user, options.name);
  const message = world.messages.get(options.message);
  if (!message || message.deleted) throw new Error(`FakeDiscord: no message ${options.message}`);
  const ids = (message.components as { components?: { custom_id?: string }[] }[]).flatMap((row) => (row.components ?? []).map((b) => b.custom_id));
  if (!ids.includes(options.customId))
    throw new Error(`FakeDiscord: message ${message.id} has no button ${options.customId} (it has ${ids.join(', ') || 'none'})`);
  return interaction(
    deps,
    { type: 3, channelId: message.channelId, userId: options.user, name: options.customId, messageId: message.id },
    {
      data: { custom_id: options.customId, component_type: 2 },
      message: world.messagePayload(message),
    },
  );
}
