import mattermost from '@mattermost/client';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { chatKey, type ChatRef } from '../../kernel/ports/chat.ts';
import type { TransportHost } from '../../kernel/ports/transport.ts';
import type { MattermostApi } from './client.ts';
import { mattermostChat } from './id.ts';
import type { MattermostNames } from './people.ts';
import { addressedToAnother, attachmentsOf, coreText, mentions, type EventPost } from './incoming.ts';
import type { MattermostIdentity } from './reach.ts';
import { socketTo } from './websocket-globals.ts';

/** Posts remembered as taken, and thread roots as known: the newest this many. */
const REMEMBERED = 5000;

/** What the `posted` event carries besides the post (as JSON text). */
interface PostedData {
  post: string;
  channel_type?: string;
  channel_display_name?: string;
  sender_name?: string;
}

export interface EventParts {
  api: MattermostApi;
  me: MattermostIdentity;
  host: TransportHost;
  settings: { token: string };
  names: MattermostNames;
  log: Log;
}

/**
 * Mattermost's WebSocket, through its own WebSocketClient (the authentication challenge, the
 * sequence numbers, pings and reconnects): each `posted` event for the bot handed to the
 * bridge, one chat's in order. A direct channel is a private chat; in other channels a post
 * that mentions the bot opens a thread that is a session of its own, and the replies there
 * reach the bot without a mention (but those addressing someone else).
 */
export class MattermostEvents {
  private readonly socket = new mattermost.WebSocketClient({
    newWebSocketFn: (url: string) => socketTo(url, this.parts.settings.token) as never,
    // After a drop: again within a second or two, as a bot should not stay deaf for long.
    minWebSocketRetryTime: 500,
    reconnectJitterRange: 500,
  });
  private readonly inOrder = new KeyedSerializer();
  private readonly taken = new Set<string>();
  /** Thread roots in channels, and whether each is the bot's (a mention opened it or it joined it). */
  private readonly roots = new Map<string, boolean>();

  constructor(private readonly parts: EventParts) {}

  /** Resolves once the socket is open; it reconnects by itself after a drop. */
  start(): Promise<void> {
    const opened = new Promise<void>((resolve) => this.socket.addFirstConnectListener(resolve));
    this.socket.addMessageListener((message: { event: string; data: unknown }) => {
      if (message.event !== 'posted') return;
      this.posted(message.data as PostedData).catch((error: unknown) => this.parts.log.error({ err: error }, 'Mattermost: handling a post failed'));
    });
    this.socket.addReconnectListener(() => this.parts.log.info('Mattermost: the WebSocket is back'));
    this.socket.initialize(this.parts.api.client.getWebSocketUrl().replace(/^http/, 'ws'), this.parts.settings.token);
    return opened;
  }

  stop(): void {
    this.socket.close();
  }

  private async posted(data: PostedData): Promise<void> {
    const post = JSON.parse(data.post) as EventPost;
    const { me, host } = this.parts;
    if (post.user_id === me.id || post.type || post.props?.from_bot === true || post.props?.from_bot === 'true' || post.props?.from_webhook) return;
    if (!this.first(post.id)) return;
    const address = await this.addressOf(post, data.channel_type === 'D');
    if (!address) return;
    const commands = new Set(host.commands.map((c) => c.name.toLowerCase()));
    const attachments = attachmentsOf(post);
    const username = data.sender_name?.replace(/^@/, '');
    void this.inOrder
      .run(`message:${chatKey(address)}`, async () => {
        const name = await this.parts.names.of(post.user_id, username);
        await host.handleMessage({
          address,
          user: { id: post.user_id, ...(name ? { name } : {}) },
          text: coreText(post.message ?? '', me.username, commands),
          messageId: post.id,
          ...(post.create_at ? { order: post.create_at } : {}),
          ...(attachments.length ? { attachments } : {}),
          ...(data.channel_type === 'D' ? { private: true } : {}),
          ...(data.channel_display_name ? { chatTitle: data.channel_display_name } : {}),
        });
      })
      .catch((error: unknown) => this.parts.log.error({ err: error, chat: chatKey(address) }, 'handling a Mattermost post failed'));
  }

  /** Where a post goes; undefined when it is not for the bot. */
  private async addressOf(post: EventPost, direct: boolean): Promise<ChatRef | undefined> {
    const root = post.root_id || undefined;
    if (direct) return mattermostChat(post.channel_id, root);
    const text = post.message ?? '';
    if (mentions(text, this.parts.me.username)) {
      this.remember(this.roots, root ?? post.id, true);
      return mattermostChat(post.channel_id, root ?? post.id);
    }
    if (!root || addressedToAnother(text, this.parts.me.username)) return undefined;
    return (await this.botsThread(root)) ? mattermostChat(post.channel_id, root) : undefined;
  }

  /** Whether a thread is the bot's: its root mentions it (asked of the server once, then remembered). */
  private async botsThread(root: string): Promise<boolean> {
    const known = this.roots.get(root);
    if (known !== undefined) return known;
    const post = await this.parts.api.get<EventPost>(`/posts/${root}`).catch(() => undefined);
    if (!post) return false;
    const mine = post.user_id === this.parts.me.id || mentions(post.message ?? '', this.parts.me.username);
    this.remember(this.roots, root, mine);
    return mine;
  }

  private first(id: string): boolean {
    if (this.taken.has(id)) return false;
    this.taken.add(id);
    if (this.taken.size > REMEMBERED) this.taken.delete(this.taken.values().next().value!);
    return true;
  }

  private remember(map: Map<string, boolean>, key: string, value: boolean): void {
    map.set(key, value);
    if (map.size > REMEMBERED) map.delete(map.keys().next().value!);
  }
}
