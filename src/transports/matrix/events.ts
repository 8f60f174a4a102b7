import { ClientEvent, MatrixEvent, RoomEvent, type MatrixClient, type Room } from 'matrix-js-sdk';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { chatKey, type ButtonAnswer, type ChatRef, type IncomingMessage, type Outbound } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import type { TransportHost } from '../../kernel/ports/transport.ts';
import type { ButtonMemory } from './buttons.ts';
import { call, roomPath } from './client.ts';
import { commandNames } from '../serving/incoming.ts';
import { matrixChat } from './id.ts';
import {
  attachmentsOf,
  captionOf,
  coreText,
  isBangCommand,
  mentions,
  repliedEventOf,
  threadRootOf,
  withoutReplyFallback,
  type MatrixIdentity,
  type MessageContent,
} from './incoming.ts';
import { Invites } from './invites.ts';
import type { KeptSync } from './kept-sync.ts';
import type { MatrixNames } from './members.ts';

/** Thread roots remembered as the bot's or not: the newest this many. */
const REMEMBERED = 5000;

export interface EventParts {
  client: MatrixClient;
  me: MatrixIdentity;
  host: TransportHost;
  kept: KeptSync;
  buttons: ButtonMemory;
  names: MatrixNames;
  /** Where a press's answer is said: Matrix has no popup for it, as Teams has none. */
  out: Outbound;
  log: Log;
}

/**
 * The rooms' events, as the SDK's /sync loop gives them: each message for the bot handed to the
 * bridge, one room's in order, and each reaction on a button pressed. A direct room is a
 * private chat, where every message is for the bot; in other rooms a message is when it
 * mentions the bot, is a `!command`, or is in a thread (`m.thread`) the bot is in, which is a
 * session of its own. What the first sync of a fresh bot brings is history, not asked of it.
 */
export class MatrixEvents {
  private readonly inOrder = new KeyedSerializer();
  /** Thread roots, and whether each is the bot's (it wrote or was mentioned in the root). */
  private readonly roots = new Map<string, boolean>();
  private live: boolean;
  private readonly invites: Invites;

  constructor(private readonly parts: EventParts) {
    this.live = parts.kept.resumed;
    this.invites = new Invites(parts.client, parts.me.userId, parts.kept, parts.host, parts.log);
  }

  /** Listens; resolves once the first sync is in. */
  start(): Promise<void> {
    const { client } = this.parts;
    client.on(RoomEvent.Timeline, (event, room, toStart) => {
      if (!toStart && room) this.timeline(event, room);
    });
    client.on(RoomEvent.MyMembership, (room, membership) => {
      if (membership === 'invite') this.invites.invited(room);
    });
    return new Promise((resolve) => {
      const synced = (state: string) => {
        if (state !== 'PREPARED') return;
        client.off(ClientEvent.Sync, synced);
        this.live = true;
        resolve();
      };
      client.on(ClientEvent.Sync, synced);
    });
  }

  private timeline(event: MatrixEvent, room: Room): void {
    const { me, log } = this.parts;
    if (!this.live || event.getSender() === me.userId || event.isRedacted()) return;
    const type = event.getType();
    if (type === 'm.room.encryption')
      void this.invites.refuseEncrypted(room.roomId).catch((error: unknown) => log.warn({ err: error }, 'Matrix: leaving an encrypted room failed'));
    if (type === 'm.reaction') return this.reaction(event, room);
    if (type !== 'm.room.message') return;
    const content = event.getContent<MessageContent>();
    // Another bot's notices, and edits of messages already taken, are not new messages.
    if (content.msgtype === 'm.notice' || content['m.relates_to']?.rel_type === 'm.replace') return;
    void this.inOrder
      .run(`room:${room.roomId}`, async () => {
        const address = await this.addressOf(event, content, room);
        if (address) this.hand(event, content, room, address.chat, address.direct);
      })
      .catch((error: unknown) => log.error({ err: error }, 'Matrix: handling a message failed'));
  }

  /** Hands the message to the bridge; a bare number written under a message with buttons presses its button. */
  private hand(event: MatrixEvent, content: MessageContent, room: Room, address: ChatRef, direct: boolean): void {
    const { host, me, names, buttons, log } = this.parts;
    const sender = event.getSender()!;
    const attachments = attachmentsOf(content);
    const text = attachments.length ? captionOf(content) : coreText(content.body ?? '', me, commandNames(host));
    const number = /^\s*(\d{1,2})\s*$/.exec(text)?.[1];
    const pressed = number ? buttons.latestIn(chatKey(address)) : undefined;
    void this.inOrder
      .run(`message:${chatKey(address)}`, async () => {
        const name = await names.of(sender, room);
        const user = { id: sender, ...(name ? { name } : {}) };
        const press = pressed && buttons.press(pressed, `${number}\uFE0F\u20E3`);
        if (press) return this.answer(press.chat, await host.handleButton({ address: press.chat, user, data: press.data, messageId: pressed }));
        const replyTo = await this.repliedTo(content, room);
        await host.handleMessage({
          address,
          user,
          text,
          messageId: event.getId()!,
          order: event.getTs(),
          ...(attachments.length ? { attachments } : {}),
          ...(direct ? { private: true } : {}),
          ...(room.name && !direct ? { chatTitle: room.name } : {}),
          ...(replyTo ? { replyTo } : {}),
        });
      })
      .catch((error: unknown) => log.error({ err: error, chat: chatKey(address) }, 'handling a Matrix message failed'));
  }

  /**
   * The message this one replies to (`/allow` names its writer so): whose, and what it said.
   * Looked up in the room as the SDK holds it, else asked of the homeserver; none when neither
   * has it.
   */
  private async repliedTo(content: MessageContent, room: Room): Promise<IncomingMessage['replyTo']> {
    const id = repliedEventOf(content);
    if (!id) return undefined;
    const event =
      room.findEventById(id) ??
      (await this.parts.client.fetchRoomEvent(room.roomId, id).then(
        (raw) => new MatrixEvent(raw),
        () => undefined,
      ));
    const sender = event?.getSender();
    if (!event || !sender) return undefined;
    const name = await this.parts.names.of(sender, room);
    return { text: withoutReplyFallback(event.getContent<MessageContent>().body ?? ''), fromId: sender, ...(name ? { from: name } : {}) };
  }

  /** A reaction with a button's key on one of the bridge's messages is a press of that button. */
  private reaction(event: MatrixEvent, room: Room): void {
    const relation = event.getContent<MessageContent>()['m.relates_to'];
    if (relation?.rel_type !== 'm.annotation' || !relation.event_id || !relation.key) return;
    const press = this.parts.buttons.press(relation.event_id, relation.key);
    if (!press) return;
    const sender = event.getSender()!;
    void this.parts.names
      .of(sender, room)
      .then((name) =>
        this.parts.host.handleButton({ address: press.chat, user: { id: sender, ...(name ? { name } : {}) }, data: press.data, messageId: relation.event_id! }),
      )
      .then((answer) => this.answer(press.chat, answer))
      .catch((error: unknown) => this.parts.log.error({ err: error, chat: chatKey(press.chat) }, 'Matrix: handling a press failed'));
  }

  /** What the bridge answers a press (`✅ Answered`, `This question was already answered.`), said in the chat. */
  private async answer(chat: ChatRef, answer: ButtonAnswer): Promise<void> {
    if (answer.text) await this.parts.out.send(chat, plain(answer.text));
  }

  /** Where a message goes, and whether it is a private chat; undefined when it is not for the bot. */
  private async addressOf(event: MatrixEvent, content: MessageContent, room: Room): Promise<{ chat: ChatRef; direct: boolean } | undefined> {
    const root = threadRootOf(content);
    const direct = await this.isDirect(room);
    if (direct) return { chat: matrixChat(room.roomId, root), direct };
    const forMe = mentions(content, this.parts.me) || isBangCommand(content.body ?? '', commandNames(this.parts.host));
    // A mention makes the thread it is in the bot's, or the thread a reply to it would begin.
    if (forMe) this.remember(root ?? event.getId()!, true);
    if (forMe || (root && (await this.botsThread(room.roomId, root)))) return { chat: matrixChat(room.roomId, root), direct };
    return undefined;
  }

  /** A room of the bot and one person: its invite said so (`is_direct`), or it has two members (asked once, then kept). */
  private async isDirect(room: Room): Promise<boolean> {
    const known = this.parts.kept.room(room.roomId);
    if (known) return known.direct;
    const joined = await call<{ joined: Record<string, unknown> }>(this.parts.client, 'GET', roomPath(room.roomId, 'joined_members')).catch(() => undefined);
    if (!joined) return false;
    const direct = Object.keys(joined.joined).length <= 2;
    await this.parts.kept.keepRoom(room.roomId, { direct });
    return direct;
  }

  /** Whether a thread is the bot's: its root is the bot's message or mentions it (asked of the homeserver once, then remembered). */
  private async botsThread(roomId: string, root: string): Promise<boolean> {
    const known = this.roots.get(root);
    if (known !== undefined) return known;
    const event = await call<{ sender?: string; content?: MessageContent }>(this.parts.client, 'GET', roomPath(roomId, 'event', root)).catch(() => undefined);
    if (!event) return false;
    const mine = event.sender === this.parts.me.userId || mentions(event.content ?? {}, this.parts.me);
    this.remember(root, mine);
    return mine;
  }

  private remember(root: string, mine: boolean): void {
    this.roots.set(root, mine);
    if (this.roots.size > REMEMBERED) this.roots.delete(this.roots.keys().next().value!);
  }
}
