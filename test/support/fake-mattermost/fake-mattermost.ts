import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Changes } from '../fake-telegram/changes.ts';
import { recentCalls, waitUntil, type Check } from '../fake-telegram/wait-for.ts';
import { MattermostFault, newId, type Call, type Channel, type Post, type StoredFile, type User } from './model.ts';
import { RateLimit } from './rate-limit.ts';
import { checkFileSize, checkMessage, route, wire, type Answer } from './rest.ts';
import { SocketServer } from './socket.ts';

/**
 * A twin of a Mattermost server, as far as the bridge uses it: REST under /api/v4 with its
 * bearer tokens, checks and errors (401, 403, 400 for a post too long, 413 for a file too
 * big, 404, and the per-token rate limit's 429), the WebSocket with its authentication
 * challenge and sequence numbers, and people who post, upload and press buttons (the server
 * posting each press to the button's integration URL, as Mattermost does).
 */
export class FakeMattermost {
  readonly users = new Map<string, User>();
  readonly channels = new Map<string, Channel>();
  readonly posts = new Map<string, Post>();
  readonly files = new Map<string, StoredFile>();
  readonly calls: Call[] = [];
  readonly limit = new RateLimit();
  readonly changes = new Changes();
  readonly socket: SocketServer;
  readonly bot: User = { id: newId(), username: 'bridgebot', first_name: '', last_name: '', nickname: '', is_bot: true };
  token = newId();
  /** Each person's own token, for their uploads. */
  private readonly tokens = new Map<string, string>();
  /** Presses the bridge's web server answered, with their status. */
  readonly presses: { status: number; body: unknown }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {
    this.socket = new SocketServer(() => this.token, this.changes);
    this.users.set(this.bot.id, this.bot);
    this.tokens.set(this.token, this.bot.id);
  }

  static async start(): Promise<FakeMattermost> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const mm = new FakeMattermost(server, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    server.on('request', (request, response) => void mm.serve(request, response));
    server.on('upgrade', (request, socket, head) => {
      if (request.url?.startsWith('/api/v4/websocket')) mm.socket.upgrade(request, socket, head);
      else socket.destroy();
    });
    return mm;
  }

  addUser(username: string, firstName = ''): User {
    const user = { id: newId(), username, first_name: firstName, last_name: '', nickname: '', is_bot: false };
    this.users.set(user.id, user);
    this.tokens.set(newId(), user.id);
    return user;
  }

  addChannel(name: string, members: string[]): Channel {
    const channel: Channel = { id: newId(), type: 'O', name, display_name: name, members: new Set([this.bot.id, ...members]) };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** The direct channel of a person and the bot. */
  directWith(user: string): Channel {
    const name = [user, this.bot.id].sort().join('__');
    const found = [...this.channels.values()].find((c) => c.name === name);
    if (found) return found;
    const channel: Channel = { id: newId(), type: 'D', name, display_name: name, members: new Set([user, this.bot.id]) };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** Someone posts (with files, each uploaded first), and the WebSocket says so. */
  say(options: { user: string; channel: string; text: string; rootId?: string; files?: { name: string; bytes: Buffer }[] }): Post {
    const fileIds = (options.files ?? []).map((file) => this.store(options.channel, file.name, file.bytes, 'text/plain').id);
    return this.createPost(options.user, { channel_id: options.channel, message: options.text, root_id: options.rootId ?? '', file_ids: fileIds });
  }

  /** Someone presses a button of a post: the server posts it to the button's integration URL, with its context. */
  async press(options: { user: string; post: string; label: RegExp }): Promise<void> {
    const post = this.posts.get(options.post)!;
    const action = actionsOf(post).find((a) => options.label.test(a.name));
    if (!action?.integration?.url)
      throw new Error(
        `no button ${options.label} on post ${post.id}: ${actionsOf(post)
          .map((a) => a.name)
          .join(', ')}`,
      );
    const user = this.users.get(options.user)!;
    const response = await fetch(action.integration.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user_id: user.id,
        user_name: user.username,
        channel_id: post.channel_id,
        post_id: post.id,
        trigger_id: newId(),
        type: '',
        context: action.integration.context,
      }),
    });
    const body = (await response.json().catch(() => undefined)) as { ephemeral_text?: string } | undefined;
    this.presses.push({ status: response.status, body });
    if (response.ok && body?.ephemeral_text)
      this.createPost(this.bot.id, { channel_id: post.channel_id, message: body.ephemeral_text, root_id: post.root_id }, user.id);
    this.changes.notify();
  }

  /**
   * Someone uses a slash command the operator registered (its Request URL and token): the
   * server posts it as a form, and shows what it answers to them alone.
   */
  async slashCommand(options: { url: string; token: string; user: string; channel: string; text: string; rootId?: string }): Promise<number> {
    const user = this.users.get(options.user)!;
    const channel = this.channels.get(options.channel)!;
    const form = new URLSearchParams({
      token: options.token,
      command: '/bridge',
      text: options.text,
      channel_id: channel.id,
      channel_name: channel.name,
      team_id: 'team',
      user_id: user.id,
      user_name: user.username,
      trigger_id: newId(),
      ...(options.rootId ? { root_id: options.rootId } : {}),
    });
    const response = await fetch(options.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    const body = (await response.json().catch(() => undefined)) as { text?: string } | undefined;
    if (response.ok && body?.text) this.createPost(this.bot.id, { channel_id: channel.id, message: body.text, root_id: options.rootId ?? '' }, user.id);
    this.changes.notify();
    return response.status;
  }

  /** The bot's posts in a channel (a thread: those under its root), oldest first, ephemeral ones to others left out. */
  botPosts(channel: string, root?: string): Post[] {
    return [...this.posts.values()].filter(
      (p) => p.user_id === this.bot.id && p.channel_id === channel && (root === undefined || p.root_id === root || p.id === root),
    );
  }

  waitFor<T>(check: Check<T>, timeoutMs = 20_000): Promise<T> {
    return waitUntil(this.changes, check, timeoutMs, () => recentCalls(this.calls));
  }

  async close(): Promise<void> {
    this.socket.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // The server's side of each route (rest.ts calls these).

  user(id: string): User {
    return this.users.get(id)!;
  }

  profile(id: string): Answer {
    const user = this.users.get(id);
    if (!user) throw new MattermostFault(404, 'app.user.missing_account.const', 'Unable to find the user.');
    return { json: user };
  }

  postFor(id: string, user: string): Post {
    const post = this.posts.get(id);
    if (!post || post.ephemeralTo) throw new MattermostFault(404, 'app.post.get.app_error', 'Unable to get the post.');
    this.member(post.channel_id, user);
    return post;
  }

  createPost(user: string, body: Record<string, unknown>, ephemeralTo?: string): Post {
    const channel = this.member(typeof body.channel_id === 'string' ? body.channel_id : '', user);
    const message = checkMessage(body.message ?? '');
    const root = typeof body.root_id === 'string' ? body.root_id : '';
    if (root && this.posts.get(root)?.channel_id !== channel.id)
      throw new MattermostFault(400, 'api.post.create_post.root_id.app_error', 'Invalid RootId parameter.');
    const now = Math.max(Date.now(), ...[...this.posts.values()].map((p) => p.create_at + 1));
    const post: Post = {
      id: newId(),
      channel_id: channel.id,
      root_id: root,
      user_id: user,
      message,
      type: '',
      create_at: now,
      update_at: now,
      edit_at: 0,
      props: (body.props as Record<string, unknown>) ?? {},
      file_ids: Array.isArray(body.file_ids) ? (body.file_ids as string[]) : [],
      versions: [message],
      ...(ephemeralTo ? { ephemeralTo } : {}),
    };
    this.posts.set(post.id, post);
    const sender = this.users.get(user)!;
    const files = post.file_ids.map((id) => this.files.get(id)).filter((f) => f !== undefined);
    if (!ephemeralTo)
      this.socket.broadcast(
        'posted',
        {
          post: JSON.stringify({ ...wire(post), metadata: { files: files.map(({ bytes: _b, ...info }) => info) } }),
          channel_type: channel.type,
          channel_display_name: channel.display_name,
          channel_name: channel.name,
          sender_name: `@${sender.username}`,
        },
        { channel_id: channel.id },
      );
    this.changes.notify();
    return post;
  }

  patchPost(user: string, id: string, body: Record<string, unknown>): Post {
    const post = this.posts.get(id);
    if (!post) throw new MattermostFault(404, 'app.post.get.app_error', 'Unable to get the post.');
    if (post.user_id !== user) throw new MattermostFault(403, 'api.context.permissions.app_error', 'You do not have the appropriate permissions.');
    if (body.message !== undefined) post.message = checkMessage(body.message);
    if (body.props !== undefined) post.props = body.props as Record<string, unknown>;
    if (Array.isArray(body.file_ids)) post.file_ids = body.file_ids as string[];
    post.versions.push(post.message);
    post.edit_at = post.update_at = Date.now();
    this.socket.broadcast('post_edited', { post: JSON.stringify(wire(post)) }, { channel_id: post.channel_id });
    this.changes.notify();
    return post;
  }

  react(postId: string, emoji: string): Record<string, unknown> {
    const post = this.posts.get(postId);
    if (!post) throw new MattermostFault(400, 'api.context.invalid_body_param.app_error', 'Invalid or missing post_id in request body.');
    return { user_id: this.bot.id, post_id: postId, emoji_name: emoji, create_at: Date.now() };
  }

  upload(user: string, form: FormData | undefined): Omit<StoredFile, 'bytes'>[] {
    const channel = form?.get('channel_id');
    if (typeof channel !== 'string')
      throw new MattermostFault(400, 'api.file.upload_file.incorrect_channelId.app_error', 'Unable to upload the file. Incorrect channel ID.');
    this.member(channel, user);
    return [];
  }

  store(channel: string, name: string, bytes: Buffer, mime: string): StoredFile {
    checkFileSize(bytes.length);
    const file = { id: newId(), name, mime_type: mime, size: bytes.length, bytes, channel_id: channel };
    this.files.set(file.id, file);
    return file;
  }

  download(id: string, user: string): Answer {
    const file = this.files.get(id);
    if (!file) throw new MattermostFault(404, 'app.file_info.get.app_error', 'Unable to get the file info.');
    this.member(file.channel_id, user);
    return { bytes: file.bytes, type: file.mime_type };
  }

  /** A channel's posts created or changed after `since` (ms), as `getPostsSince` asks. */
  postsSince(channel: string, since: number, user: string): Answer {
    this.member(channel, user);
    const posts = [...this.posts.values()].filter((p) => p.channel_id === channel && !p.ephemeralTo && p.update_at > since);
    return { json: { order: posts.map((p) => p.id).reverse(), posts: Object.fromEntries(posts.map((p) => [p.id, wire(p)])) } };
  }

  membership(channel: string, member: string, user: string): Answer {
    this.member(channel, user);
    if (!this.channels.get(channel)!.members.has(member))
      throw new MattermostFault(404, 'app.channel.get_member.missing.app_error', 'No channel member found for that user ID and channel ID.');
    return { json: { channel_id: channel, user_id: member, roles: 'channel_user' } };
  }

  /** The channel, when `user` is in it: 403 otherwise, as the server answers. */
  private member(id: string, user: string): Channel {
    const channel = this.channels.get(id);
    if (!channel || !channel.members.has(user))
      throw new MattermostFault(403, 'api.context.permissions.app_error', 'You do not have the appropriate permissions.');
    return channel;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const path = url.pathname.replace(/^\/api\/v4/, '');
    const found = route(request.method ?? 'GET', path);
    const raw = await collect(request);
    const call: Call = { method: request.method ?? 'GET', route: found?.route ?? `${request.method} ${path}`, status: 200, at: Date.now() };
    let headers: Record<string, string> = {};
    try {
      const user = this.tokens.get((request.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
      if (!user) throw new MattermostFault(401, 'api.context.session_expired.app_error', 'Invalid or expired session, please login again.');
      headers = this.limit.take(user);
      if (!found) throw new MattermostFault(404, 'api.context.404.app_error', 'Sorry, we could not find the page.');
      const type = request.headers['content-type'] ?? '';
      let form: FormData | undefined;
      let body: Record<string, unknown> = {};
      if (type.startsWith('multipart/form-data')) {
        form = await new Response(raw, { headers: { 'content-type': type } }).formData();
        const file = form.get('files');
        if (file instanceof Blob) {
          // The bytes are kept as the upload's answer names them.
          const stored = this.store(
            form.get('channel_id') as string,
            (file as File).name,
            Buffer.from(await file.arrayBuffer()),
            file.type || 'application/octet-stream',
          );
          this.member(stored.channel_id, user);
          call.body = { channel_id: stored.channel_id };
          call.chat = stored.channel_id;
          const answer = { file_infos: [{ id: stored.id, name: stored.name, size: stored.size, mime_type: stored.mime_type }], client_ids: [] };
          this.send(response, 201, headers, answer);
          this.calls.push({ ...call, status: 201 });
          return;
        }
      } else if (raw.length) body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      else body = Object.fromEntries(url.searchParams);
      call.body = body;
      const about = typeof body.channel_id === 'string' ? body.channel_id : this.posts.get(found.params[0] ?? '')?.channel_id;
      if (about) call.chat = about;
      const answer = await found.handler(this, found.params, body, form, user);
      call.status = 'json' in answer ? (answer.status ?? 200) : 200;
      if ('json' in answer) this.send(response, call.status, headers, answer.json);
      else {
        response.writeHead(200, { ...headers, 'content-type': answer.type });
        response.end(answer.bytes);
      }
    } catch (error) {
      const fault = error instanceof MattermostFault ? error : new MattermostFault(500, 'api.internal', (error as Error).message);
      call.status = fault.status;
      if (fault.status === 429) {
        response.writeHead(429, { ...headers, ...fault.headers, 'content-type': 'text/plain; charset=utf-8' });
        response.end('limit exceeded\n');
      } else
        this.send(
          response,
          fault.status,
          { ...headers, ...fault.headers },
          { id: fault.id, message: fault.message, status_code: fault.status, request_id: newId() },
        );
    }
    this.calls.push(call);
    this.changes.notify();
  }

  private send(response: ServerResponse, status: number, headers: Record<string, string>, json: unknown): void {
    response.writeHead(status, { ...headers, 'content-type': 'application/json' });
    response.end(JSON.stringify(json));
  }
}

export interface PostAction {
  id: string;
  name: string;
  integration?: { url?: string; context?: unknown };
}

export function actionsOf(post: Post): PostAction[] {
  return ((post.props.attachments as { actions?: PostAction[] }[] | undefined) ?? []).flatMap((a) => a.actions ?? []);
}

async function collect(request: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of request) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}
