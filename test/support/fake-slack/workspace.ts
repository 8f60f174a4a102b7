import type { Changes } from '../fake-telegram/changes.ts';

/** A person of the workspace. */
export interface SlackUser {
  readonly id: string;
  readonly name: string;
  readonly realName: string;
  readonly displayName: string;
}

export interface SlackChannel {
  readonly id: string;
  readonly name: string;
  /** A DM: between the bot and `user`. */
  readonly isIm: boolean;
  readonly isPrivate: boolean;
  readonly user?: string;
  readonly members: Set<string>;
}

export interface SlackFile {
  readonly id: string;
  name: string;
  title: string;
  mimetype: string;
  content: Buffer;
  /** Set once files.completeUploadExternal (or a person's upload) shares it. */
  shared: boolean;
  readonly user: string;
}

/** A message as the workspace holds it, now (after edits). */
export interface StoredMessage {
  readonly channel: string;
  readonly ts: string;
  /** Who wrote it: a person's id, or the bot user's. */
  readonly user: string;
  readonly fromBot: boolean;
  text: string;
  blocks?: unknown[];
  readonly threadTs?: string;
  readonly files: string[];
  readonly reactions: { name: string; users: string[] }[];
  /** How many times chat.update changed it. */
  edits: number;
  deleted: boolean;
}

export interface EphemeralMessage {
  readonly channel: string;
  readonly user: string;
  readonly text: string;
  readonly blocks?: unknown[];
  readonly threadTs?: string;
  readonly ts: string;
}

export interface WorkspaceIdentity {
  readonly teamId: string;
  readonly teamName: string;
  readonly appId: string;
  readonly botId: string;
  readonly botUserId: string;
  readonly botName: string;
}

/** The workspace the twin serves: its people, channels, messages and files. */
export class Workspace {
  readonly users = new Map<string, SlackUser>();
  readonly channels = new Map<string, SlackChannel>();
  readonly messages: StoredMessage[] = [];
  readonly ephemeral: EphemeralMessage[] = [];
  readonly files = new Map<string, SlackFile>();
  /** Each thread's status (`<channel>/<thread ts>`), and every one it was given, in order (`''`: taken away). */
  readonly threadStatuses = new Map<string, string[]>();
  private lastTs = 0;
  private nextId = 1;

  constructor(
    readonly identity: WorkspaceIdentity,
    readonly changes: Changes,
  ) {
    this.users.set(identity.botUserId, { id: identity.botUserId, name: identity.botName, realName: identity.botName, displayName: identity.botName });
  }

  setThreadStatus(channel: string, threadTs: string, status: string): void {
    const key = `${channel}/${threadTs}`;
    const seen = this.threadStatuses.get(key) ?? [];
    if (status || seen.at(-1)) this.threadStatuses.set(key, [...seen, status]);
    this.changes.notify();
  }

  /** A message timestamp as Slack writes them ("1700000000.000100"), strictly increasing. */
  nextTs(): string {
    const micros = Math.max(Date.now() * 1000, this.lastTs + 1);
    this.lastTs = micros;
    return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  }

  newId(prefix: string): string {
    return `${prefix}0${String(this.nextId++).padStart(8, '0')}`;
  }

  addUser(user: { id?: string; name: string; realName?: string; displayName?: string }): SlackUser {
    const added: SlackUser = {
      id: user.id ?? this.newId('U'),
      name: user.name,
      realName: user.realName ?? user.name,
      displayName: user.displayName ?? user.name,
    };
    this.users.set(added.id, added);
    return added;
  }

  addChannel(channel: { id?: string; name: string; members: string[]; botIsMember?: boolean; isPrivate?: boolean }): SlackChannel {
    const members = new Set(channel.members);
    if (channel.botIsMember ?? true) members.add(this.identity.botUserId);
    const added: SlackChannel = {
      id: channel.id ?? this.newId(channel.isPrivate ? 'G' : 'C'),
      name: channel.name,
      isIm: false,
      isPrivate: channel.isPrivate ?? false,
      members,
    };
    this.channels.set(added.id, added);
    return added;
  }

  /** The DM between the bot and `user`, opened on first use. */
  imWith(user: string): SlackChannel {
    for (const channel of this.channels.values()) if (channel.isIm && channel.user === user) return channel;
    const im: SlackChannel = { id: this.newId('D'), name: user, isIm: true, isPrivate: true, user, members: new Set([user, this.identity.botUserId]) };
    this.channels.set(im.id, im);
    return im;
  }

  store(message: Omit<StoredMessage, 'edits' | 'deleted' | 'reactions' | 'files'> & { files?: string[] }): StoredMessage {
    const stored: StoredMessage = { ...message, files: message.files ?? [], reactions: [], edits: 0, deleted: false };
    this.messages.push(stored);
    this.changes.notify();
    return stored;
  }

  message(channel: string, ts: string): StoredMessage | undefined {
    return this.messages.find((m) => m.channel === channel && m.ts === ts);
  }

  /** The bot's messages (or everyone's) of a channel, or of one thread of it, as they are now. */
  messagesIn(channel: string, options: { thread?: string; bot?: boolean } = {}): StoredMessage[] {
    return this.messages.filter(
      (m) =>
        m.channel === channel &&
        !m.deleted &&
        (options.thread === undefined || m.threadTs === options.thread || m.ts === options.thread) &&
        (options.bot === undefined || m.fromBot === options.bot),
    );
  }
}
