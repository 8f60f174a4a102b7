import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Changes } from '../fake-telegram/changes.ts';
import { recentCalls, waitUntil, type Check } from '../fake-telegram/wait-for.ts';
import { MatrixFault, newId, SERVER, type Call, type FakeRoom, type MatrixUser, type RoomEvent, type StoredMedia } from './model.ts';
import { RateLimit } from './rate-limit.ts';
import { route } from './routes.ts';

/**
 * A twin of a Matrix homeserver, as far as matrix-js-sdk and the bridge use its Client-Server
 * API: bearer tokens (M_UNKNOWN_TOKEN), /sync long polls with `since` tokens, rooms with their
 * state, members and invites, sending with transaction ids, edits and reactions as relations
 * (and the relations endpoint), redactions, the media repository, and its errors: M_FORBIDDEN
 * where the bot is no member, M_LIMIT_EXCEEDED with `retry_after_ms`, M_TOO_LARGE. People
 * create rooms, invite, write, send files and react through the twin's own methods.
 */
export class FakeMatrix {
  readonly users = new Map<string, MatrixUser>();
  readonly rooms = new Map<string, FakeRoom>();
  readonly media = new Map<string, StoredMedia>();
  readonly calls: Call[] = [];
  readonly limit = new RateLimit();
  readonly changes = new Changes();
  readonly bot: MatrixUser;
  /** The stream's last position: what `next_batch` names. */
  position = 0;
  /** Each user's transactions, so a retried send is one event. */
  private readonly txns = new Map<string, string>();
  /** Tokens the server no longer knows (logged out). */
  readonly revoked = new Set<string>();
  /** How many times the bot's client started (it makes its sync filter at each start), and the start its latest incremental /sync came from. */
  readonly botClient = { starts: 0, syncingSince: 0 };

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {
    this.bot = this.addUser('bridgebot', 'Bridge Bot');
  }

  static async start(): Promise<FakeMatrix> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const mx = new FakeMatrix(server, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    server.on('request', (request, response) => void mx.serve(request, response));
    return mx;
  }

  get token(): string {
    return this.bot.token;
  }

  addUser(localpart: string, displayname: string): MatrixUser {
    const user = { userId: `@${localpart}:${SERVER}`, displayname, token: `syt_${newId(32)}` };
    this.users.set(user.userId, user);
    return user;
  }

  /** A room made by `creator`, with `members` joined and others invited; the bot is joined when `botJoined`. */
  createRoom(options: { creator: string; name?: string; members?: string[]; invite?: string[]; direct?: boolean; encrypted?: boolean }): FakeRoom {
    const room: FakeRoom = { roomId: `!${newId()}:${SERVER}`, state: new Map(), events: [] };
    this.rooms.set(room.roomId, room);
    const by = options.creator;
    this.append(room, by, 'm.room.create', { creator: by, room_version: '10' }, '');
    this.append(room, by, 'm.room.member', { membership: 'join', displayname: this.users.get(by)?.displayname }, by);
    this.append(room, by, 'm.room.join_rules', { join_rule: 'invite' }, '');
    if (options.name) this.append(room, by, 'm.room.name', { name: options.name }, '');
    if (options.encrypted) this.append(room, by, 'm.room.encryption', { algorithm: 'm.megolm.v1.aes-sha2' }, '');
    for (const member of options.members ?? [])
      this.append(room, member, 'm.room.member', { membership: 'join', displayname: this.users.get(member)?.displayname }, member);
    for (const invited of options.invite ?? [])
      this.append(room, by, 'm.room.member', { membership: 'invite', ...(options.direct ? { is_direct: true } : {}) }, invited);
    return room;
  }

  /** Someone writes in a room (a thread's root given: in that thread), mentioning whom `mentions` names. */
  say(options: { user: string; room: string; body: string; thread?: string; mentions?: string[]; replyTo?: string }): RoomEvent {
    const relation = options.thread
      ? {
          'm.relates_to': {
            rel_type: 'm.thread',
            event_id: options.thread,
            // A reply to a message of the thread, or the fallback every thread message carries for older clients.
            is_falling_back: options.replyTo === undefined,
            'm.in_reply_to': { event_id: options.replyTo ?? options.thread },
          },
        }
      : options.replyTo
        ? { 'm.relates_to': { 'm.in_reply_to': { event_id: options.replyTo } } }
        : {};
    const content = { msgtype: 'm.text', body: options.body, ...(options.mentions ? { 'm.mentions': { user_ids: options.mentions } } : {}), ...relation };
    return this.send(options.user, options.room, 'm.room.message', content);
  }

  /** Someone sends a file (uploaded to the media repository first), with a caption as its body where given (Matrix 1.10). */
  sendFile(options: { user: string; room: string; name: string; bytes: Buffer; caption?: string; thread?: string; mentions?: string[] }): RoomEvent {
    const stored = this.store(options.name, 'text/plain', options.bytes);
    const relation = options.thread
      ? { 'm.relates_to': { rel_type: 'm.thread', event_id: options.thread, is_falling_back: true, 'm.in_reply_to': { event_id: options.thread } } }
      : {};
    return this.send(options.user, options.room, 'm.room.message', {
      msgtype: 'm.file',
      body: options.caption ?? options.name,
      filename: options.name,
      url: `mxc://${SERVER}/${stored.mediaId}`,
      info: { mimetype: 'text/plain', size: options.bytes.length },
      ...(options.mentions ? { 'm.mentions': { user_ids: options.mentions } } : {}),
      ...relation,
    });
  }

  react(user: string, room: string, eventId: string, key: string): RoomEvent {
    return this.send(user, room, 'm.reaction', { 'm.relates_to': { rel_type: 'm.annotation', event_id: eventId, key } });
  }

  invite(room: string, by: string, user: string, direct = false): RoomEvent {
    return this.append(this.rooms.get(room)!, by, 'm.room.member', { membership: 'invite', ...(direct ? { is_direct: true } : {}) }, user);
  }

  membership(room: string, user: string): string | undefined {
    return this.rooms.get(room)?.state.get(`m.room.member\u0000${user}`)?.content.membership as string | undefined;
  }

  /** The bot's messages in a room (a thread: those in it), oldest first, edits and reactions left out. */
  botMessages(room: string, thread?: string): RoomEvent[] {
    return (this.rooms.get(room)?.events ?? []).filter((e) => {
      const relation = e.content['m.relates_to'] as { rel_type?: string; event_id?: string } | undefined;
      if (e.sender !== this.bot.userId || e.type !== 'm.room.message' || relation?.rel_type === 'm.replace') return false;
      return thread ? relation?.rel_type === 'm.thread' && relation.event_id === thread : relation?.rel_type !== 'm.thread';
    });
  }

  /** The edits (`m.replace`) of an event by its sender, oldest first: a client shows the last one's `m.new_content`. */
  editsOf(event: RoomEvent): RoomEvent[] {
    return (this.rooms.get(event.room_id)?.events ?? []).filter((e) => {
      const relation = e.content['m.relates_to'] as { rel_type?: string; event_id?: string } | undefined;
      return e.sender === event.sender && relation?.rel_type === 'm.replace' && relation.event_id === event.event_id;
    });
  }

  /** The keys the bot reacted with on an event, its redacted reactions left out. */
  botReactions(event: RoomEvent): string[] {
    return (this.rooms.get(event.room_id)?.events ?? [])
      .filter((e) => e.sender === this.bot.userId && e.type === 'm.reaction' && !e.content.redacted)
      .map((e) => e.content['m.relates_to'] as { event_id?: string; key?: string })
      .filter((r) => r.event_id === event.event_id)
      .map((r) => r.key!);
  }

  waitFor<T>(check: Check<T>, timeoutMs = 20_000): Promise<T> {
    return waitUntil(this.changes, check, timeoutMs, () => recentCalls(this.calls));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.changes.notify();
  }

  // The server's side (routes.ts calls these).

  /** The room, when `user` is joined to it: M_FORBIDDEN otherwise, as the server answers. */
  joined(roomId: string, user: string): FakeRoom {
    const room = this.rooms.get(roomId);
    if (!room || this.membership(roomId, user) !== 'join') throw new MatrixFault(403, 'M_FORBIDDEN', `User ${user} not in room ${roomId}`);
    return room;
  }

  /** An event sent by `user` (a transaction sent again answers the same event). */
  send(user: string, roomId: string, type: string, content: Record<string, unknown>, txnId?: string): RoomEvent {
    const key = txnId ? `${user}\u0000${roomId}\u0000${txnId}` : undefined;
    const done = key ? this.txns.get(key) : undefined;
    const room = this.joined(roomId, user);
    if (done) return room.events.find((e) => e.event_id === done)!;
    const event = this.append(room, user, type, content);
    if (key) this.txns.set(key, event.event_id);
    return event;
  }

  append(room: FakeRoom, sender: string, type: string, content: Record<string, unknown>, stateKey?: string): RoomEvent {
    const event: RoomEvent = {
      event_id: `$${newId(24)}`,
      room_id: room.roomId,
      type,
      sender,
      content,
      origin_server_ts: Math.max(Date.now(), (room.events.at(-1)?.origin_server_ts ?? 0) + 1),
      ...(stateKey !== undefined ? { state_key: stateKey } : {}),
      pos: ++this.position,
    };
    room.events.push(event);
    if (stateKey !== undefined) room.state.set(`${type}\u0000${stateKey}`, event);
    this.changes.notify();
    return event;
  }

  store(name: string, type: string, bytes: Buffer): StoredMedia {
    const stored = { mediaId: newId(24), name, type, bytes };
    this.media.set(stored.mediaId, stored);
    return stored;
  }

  /** Whose token a request carries: M_MISSING_TOKEN, or M_UNKNOWN_TOKEN for one the server does not know. */
  userOf(request: IncomingMessage): string {
    const token = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    if (!token) throw new MatrixFault(401, 'M_MISSING_TOKEN', 'Missing access token');
    const user = [...this.users.values()].find((u) => u.token === token);
    if (!user || this.revoked.has(token)) throw new MatrixFault(401, 'M_UNKNOWN_TOKEN', 'Invalid access token passed.', { soft_logout: false });
    return user.userId;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const found = route(request.method ?? 'GET', url.pathname);
    const call: Call = { method: request.method ?? 'GET', route: found?.route ?? `${request.method} ${url.pathname}`, status: 200, at: Date.now() };
    const raw = await collect(request);
    let answer: { json?: unknown; bytes?: Buffer; type?: string; status?: number };
    try {
      if (!found) throw new MatrixFault(404, 'M_UNRECOGNIZED', 'Unrecognized request');
      const user = found.open ? undefined : this.userOf(request);
      const type = request.headers['content-type'] ?? '';
      const body = raw.length && type.includes('json') ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
      call.body = body;
      answer = await found.handler({ mx: this, params: found.params, body, raw, query: url.searchParams, user: user!, call, type, request });
    } catch (error) {
      const fault = error instanceof MatrixFault ? error : new MatrixFault(500, 'M_UNKNOWN', (error as Error).message);
      answer = { status: fault.status, json: { errcode: fault.errcode, error: fault.message, ...fault.extra } };
    }
    call.status = answer.status ?? 200;
    if (answer.bytes) {
      response.writeHead(call.status, { 'content-type': answer.type ?? 'application/octet-stream' });
      response.end(answer.bytes);
    } else {
      response.writeHead(call.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.json ?? {}));
    }
    this.calls.push(call);
    this.changes.notify();
  }
}

async function collect(request: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of request) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}
