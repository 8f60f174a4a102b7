import { Snowflakes } from './snowflakes.ts';

/** The permission to see a channel (and read it). */
export const VIEW_CHANNEL = 1 << 10;
/** What @everyone may do in the fake's server: see channels, write, read history (no administrator). */
export const EVERYONE_PERMISSIONS = '1071698660929';

/** Discord's channel types the fake knows. */
export const ChannelType = { GuildText: 0, DM: 1, PublicThread: 11 } as const;

export interface UserRecord {
  id: string;
  username: string;
  global_name: string | null;
  bot?: boolean;
}

export interface ChannelRecord {
  id: string;
  type: number;
  name?: string;
  guildId?: string;
  /** A thread's channel. */
  parentId?: string;
  /** A DM's person. */
  recipient?: string;
  /** A thread's maker. */
  ownerId?: string;
  /** Who may not see it though they are in its server (member overwrites denying View Channel). */
  hiddenFrom?: Set<string>;
  /** Whether the bot may see and write in it (50001 Missing Access otherwise). */
  botCanSee: boolean;
}

export interface GuildRecord {
  id: string;
  name: string;
  ownerId: string;
  members: Set<string>;
}

export interface StoredFile {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

export interface AttachmentRecord {
  id: string;
  filename: string;
  size: number;
  content_type: string;
  url: string;
  proxy_url: string;
}

export interface MessageRecord {
  id: string;
  channelId: string;
  authorId: string;
  content: string;
  embeds: unknown[];
  components: unknown[];
  attachments: AttachmentRecord[];
  mentions: string[];
  timestamp: string;
  editedTimestamp: string | null;
  deleted: boolean;
  flags: number;
  /** The message it replies to. */
  replyTo?: string;
  /** Emoji the bot put on it. */
  reactions: string[];
  /** Every text it showed, in order, edits included. */
  versions: string[];
  /** The interaction it answers, when it does. */
  interactionId?: string;
  /** Shown to this person alone (an ephemeral follow-up). */
  ephemeralTo?: string;
}

export interface CommandRecord {
  id: string;
  name: string;
  description: string;
  options: unknown[];
  type: number;
}

/** Everything the fake Discord holds: people, guilds, channels, messages, files, commands. */
export class World {
  readonly ids = new Snowflakes();
  readonly users = new Map<string, UserRecord>();
  readonly guilds = new Map<string, GuildRecord>();
  readonly channels = new Map<string, ChannelRecord>();
  readonly messages = new Map<string, MessageRecord>();
  readonly files = new Map<string, StoredFile>();
  commands: CommandRecord[] = [];

  constructor(
    readonly bot: UserRecord,
    readonly applicationId: string,
  ) {
    this.users.set(bot.id, bot);
  }

  user(id: string, name = `user${id.slice(-4)}`): UserRecord {
    let user = this.users.get(id);
    if (!user) {
      user = { id, username: name.toLowerCase(), global_name: name };
      this.users.set(id, user);
    }
    return user;
  }

  /** The DM channel between the bot and a person, made on first use as Discord makes it. */
  dmWith(userId: string): ChannelRecord {
    for (const channel of this.channels.values()) if (channel.type === ChannelType.DM && channel.recipient === userId) return channel;
    const channel: ChannelRecord = { id: this.ids.next(), type: ChannelType.DM, recipient: userId, botCanSee: true };
    this.channels.set(channel.id, channel);
    return channel;
  }

  channelMessages(channelId: string): MessageRecord[] {
    return [...this.messages.values()].filter((m) => m.channelId === channelId && !m.deleted);
  }

  addMessage(
    fields: Omit<MessageRecord, 'id' | 'timestamp' | 'editedTimestamp' | 'deleted' | 'reactions' | 'versions' | 'flags'> & { flags?: number },
  ): MessageRecord {
    const message: MessageRecord = {
      ...fields,
      id: this.ids.next(),
      timestamp: new Date().toISOString(),
      editedTimestamp: null,
      deleted: false,
      flags: fields.flags ?? 0,
      reactions: [],
      versions: [fields.content],
    };
    this.messages.set(message.id, message);
    return message;
  }

  storeFile(channelId: string, origin: string, file: StoredFile): AttachmentRecord {
    const id = this.ids.next();
    this.files.set(id, file);
    const url = `${origin}/attachments/${channelId}/${id}/${encodeURIComponent(file.filename)}`;
    return { id, filename: file.filename, size: file.bytes.length, content_type: file.contentType, url, proxy_url: url };
  }

  // --- payloads, as the API and the gateway carry them ---------------------------------------

  userPayload(id: string): Record<string, unknown> {
    const user = this.users.get(id) ?? this.user(id);
    return { id: user.id, username: user.username, discriminator: '0', global_name: user.global_name, avatar: null, ...(user.bot ? { bot: true } : {}) };
  }

  memberPayload(guildId: string, userId: string): Record<string, unknown> {
    return { user: this.userPayload(userId), roles: [], joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0, nick: null };
  }

  channelPayload(channel: ChannelRecord): Record<string, unknown> {
    const base = { id: channel.id, type: channel.type, flags: 0 };
    if (channel.type === ChannelType.DM) return { ...base, last_message_id: null, recipients: [this.userPayload(channel.recipient!)] };
    const overwrites = [...(channel.hiddenFrom ?? [])].map((id) => ({ id, type: 1, allow: '0', deny: String(VIEW_CHANNEL) }));
    const guild = { guild_id: channel.guildId, name: channel.name, permission_overwrites: overwrites, position: 0, nsfw: false };
    if (channel.type === ChannelType.PublicThread)
      return {
        ...base,
        ...guild,
        parent_id: channel.parentId,
        owner_id: channel.ownerId,
        message_count: this.channelMessages(channel.id).length,
        member_count: 1,
        thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date().toISOString(), locked: false },
      };
    return { ...base, ...guild, parent_id: null, topic: null, last_message_id: null, rate_limit_per_user: 0 };
  }

  /** What a message looks like to the bot; `hideContent` empties what the Message Content intent guards. */
  messagePayload(message: MessageRecord, { hideContent = false } = {}): Record<string, unknown> {
    const channel = this.channels.get(message.channelId)!;
    const guildId = channel.guildId;
    const replied = message.replyTo ? this.messages.get(message.replyTo) : undefined;
    return {
      id: message.id,
      channel_id: message.channelId,
      // Discord says the channel's type with each message: discord.js makes an uncached DM channel from it.
      channel_type: channel.type,
      ...(guildId ? { guild_id: guildId, member: this.memberPayload(guildId, message.authorId) } : {}),
      author: this.userPayload(message.authorId),
      content: hideContent ? '' : message.content,
      timestamp: message.timestamp,
      edited_timestamp: message.editedTimestamp,
      tts: false,
      mention_everyone: false,
      mentions: message.mentions.map((id) => this.userPayload(id)),
      mention_roles: [],
      attachments: hideContent ? [] : message.attachments,
      embeds: hideContent ? [] : message.embeds,
      components: hideContent ? [] : message.components,
      pinned: false,
      type: replied ? 19 : 0,
      flags: message.flags,
      ...(message.interactionId ? { webhook_id: this.applicationId, application_id: this.applicationId } : {}),
      ...(replied
        ? {
            message_reference: { type: 0, message_id: replied.id, channel_id: replied.channelId, ...(guildId ? { guild_id: guildId } : {}) },
            referenced_message: this.messagePayload(replied, { hideContent }),
          }
        : {}),
    };
  }

  rolesPayload(guild: GuildRecord): Record<string, unknown>[] {
    return [
      { id: guild.id, name: '@everyone', permissions: EVERYONE_PERMISSIONS, position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 },
    ];
  }

  guildPayload(guild: GuildRecord): Record<string, unknown> {
    const channels = [...this.channels.values()].filter((c) => c.guildId === guild.id && c.botCanSee);
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      owner_id: guild.ownerId,
      unavailable: false,
      large: false,
      member_count: guild.members.size,
      features: [],
      roles: [
        { id: guild.id, name: '@everyone', permissions: '1071698660929', position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 },
      ],
      emojis: [],
      stickers: [],
      channels: channels.filter((c) => c.type !== ChannelType.PublicThread).map((c) => this.channelPayload(c)),
      threads: channels.filter((c) => c.type === ChannelType.PublicThread).map((c) => this.channelPayload(c)),
      members: [this.memberPayload(guild.id, this.bot.id)],
      presences: [],
      voice_states: [],
      stage_instances: [],
      guild_scheduled_events: [],
      joined_at: new Date(0).toISOString(),
      premium_tier: 0,
      preferred_locale: 'en-US',
      system_channel_flags: 0,
      verification_level: 0,
      nsfw_level: 0,
      mfa_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
    };
  }
}
