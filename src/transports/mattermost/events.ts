import mattermost from '@mattermost/client';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { chatKey, type ChatRef } from '../../kernel/ports/chat.ts';
import type { TransportHost } from '../../kernel/ports/transport.ts';
import type { MattermostApi } from './client.ts';
import { mattermostChat } from './id.ts';
import type { MattermostNames } from './members.ts';
import { addressedToAnother, attachmentsOf, coreText, mentions, type EventPost } from './incoming.ts';
import type { MattermostIdentity } from './reach.ts';
import WebSocket from 'ws';
import './websocket-globals.ts';
import { commandNames, isFirst } from '../serving/incoming.ts';

/** Posts remembered as taken, and thread roots as known: the newest this many. */
const REMEMBERED = 5000;
/** Channels caught up on after a new connection: the most recently heard from. */
const CAUGHT_UP_CHANNELS = 50;

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
    // The token goes in the client's authentication challenge alone, not in the request's headers:
    // the client prints a failed socket's event to the console, request and all.
    newWebSocketFn: (url: string) => new WebSocket(url) as never,
    // After a drop: again within a second or two, as a bot should not stay deaf for long.
    minWebSocketRetryTime: 500,
    reconnectJitterRange: 500,
  });
  private readonly inOrder = new KeyedSerializer();
  private readonly taken = new Set<string>();
  /** Thread roots in channels, and whether each is the bot's (a mention opened it or it joined it). */
  private readonly roots = new Map<string, boolean>();
  /** The channels the bot heard from, newest last: what a new connection catches up on, from the last post seen. */
  private readonly channels = new Map<string, { type: string; title: string | undefined; since: number }>();

  constructor(private readonly parts: EventParts) {}

  /** Resolves once the socket is open; it reconnects by itself after a drop. */
  start(): Promise<void> {
    const opened = new Promise<void>((resolve) => this.socket.addFirstConnectListener(resolve));
    this.socket.addMessageListener((message: { event: string; data: unknown }) => {
      if (message.event !== 'posted') return;
      this.posted(message.data as PostedData);
    });
    // Registered, the client also starts its sequence afresh on a new connection, rather than reconnecting for ever.
    this.socket.addMissedMessageListener(
      () => void this.catchUp().catch((error: unknown) => this.parts.log.warn({ err: error }, 'Mattermost: fetching what was missed failed')),
    );
    this.socket.addReconnectListener(() => this.parts.log.info('Mattermost: the WebSocket is back'));
    this.socket.initialize(this.parts.api.client.getWebSocketUrl().replace(/^http/, 'ws'), this.parts.api.client.getToken());
    return opened;
  }

  stop(): void {
    this.socket.close();
  }

  private posted(data: PostedData): void {
    let post: EventPost;
    try {
      post = JSON.parse(data.post) as EventPost;
    } catch {
      return this.parts.log.warn('Mattermost: a posted event carried no readable post');
    }
    const seen = { type: data.channel_type ?? 'O', title: data.channel_display_name, since: post.create_at ?? Date.now() };
    this.channels.delete(post.channel_id);
    this.channels.set(post.channel_id, seen);
    if (this.channels.size > CAUGHT_UP_CHANNELS) this.channels.delete(this.channels.keys().next().value!);
    this.take(post, seen, data.sender_name?.replace(/^@/, ''));
  }

  /**
   * The socket came back as a new connection (the server restarted, or kept no queue for it):
   * what was posted meanwhile in the channels the bot heard from is fetched
   * (`GET /channels/{id}/posts?since=…`), each post taken once.
   */
  private async catchUp(): Promise<void> {
    for (const [channel, seen] of [...this.channels]) {
      const page = await this.parts.api
        .call<{ order: string[]; posts: Record<string, EventPost> }>('get', `/channels/${channel}/posts?since=${seen.since}`)
        .catch(() => undefined);
      const posts = Object.values(page?.posts ?? {}).sort((a, b) => (a.create_at ?? 0) - (b.create_at ?? 0));
      for (const post of posts) this.take(post, seen, undefined);
    }
  }

  /** A post handed to the bridge when it is for the bot, each one once, a channel's in the order they came. */
  private take(post: EventPost, channel: { type: string; title?: string | undefined }, username: string | undefined): void {
    const { me, host } = this.parts;
    if (post.user_id === me.id || post.type || post.props?.from_bot === true || post.props?.from_bot === 'true' || post.props?.from_webhook) return;
    if (!isFirst(this.taken, post.id, REMEMBERED)) return;
    const direct = channel.type === 'D';
    void this.inOrder
      .run(`channel:${post.channel_id}`, async () => {
        const address = await this.addressOf(post, direct);
        if (!address) return;
        const attachments = attachmentsOf(post);
        void this.inOrder
          .run(`message:${chatKey(address)}`, async () => {
            const name = await this.parts.names.of(post.user_id, username);
            await host.handleMessage({
              address,
              user: { id: post.user_id, ...(name ? { name } : {}) },
              text: coreText(post.message ?? '', me.username, commandNames(host)),
              messageId: post.id,
              ...(post.create_at ? { order: post.create_at } : {}),
              ...(attachments.length ? { attachments } : {}),
              ...(direct ? { private: true } : {}),
              ...(channel.title ? { chatTitle: channel.title } : {}),
            });
          })
          .catch((error: unknown) => this.parts.log.error({ err: error, chat: chatKey(address) }, 'handling a Mattermost post failed'));
      })
      .catch((error: unknown) => this.parts.log.error({ err: error }, 'Mattermost: handling a post failed'));
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
    const post = await this.parts.api.call<EventPost>('get', `/posts/${root}`).catch(() => undefined);
    if (!post) return false;
    const mine = post.user_id === this.parts.me.id || mentions(post.message ?? '', this.parts.me.username);
    this.remember(this.roots, root, mine);
    return mine;
  }

  private remember(map: Map<string, boolean>, key: string, value: boolean): void {
    map.set(key, value);
    if (map.size > REMEMBERED) map.delete(map.keys().next().value!);
  }
}
