import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Changes } from '../fake-telegram/changes.ts';
import { waitUntil, type Check } from '../fake-telegram/wait-for.ts';
import { handleDownload, handleUpload } from './file-transfer.ts';
import { HttpEvents } from './http-events.ts';
import { DOWNLOAD_SCOPE } from './methods.ts';
import { RateLimits, type RateLimitOptions } from './rate-limits.ts';
import { SocketModeServer, type Envelope, type SocketModeOptions } from './socket-mode.ts';
import { buttonsOf, pressButton, say, slashCommand, type ActionDeps, type SayOptions } from './user-actions.ts';
import { handleApiCall, type SlackCall, type WebApiDeps } from './web-api.ts';
import { Workspace, type EphemeralMessage, type SlackChannel, type SlackUser, type StoredMessage } from './workspace.ts';

export interface FakeSlackOptions {
  readonly botToken?: string;
  readonly appToken?: string;
  /** Enforce Slack's rate limits (chat.postMessage per channel, the methods' tiers); default off. */
  readonly rateLimits?: boolean | RateLimitOptions;
  readonly socketMode?: SocketModeOptions;
  /** The bot token's scopes (its app's manifest): a call without its scope is refused with missing_scope. Default: every scope. */
  readonly scopes?: readonly string[];
}

/** What a response_url received: a slash command's or an action's later answer. */
export interface ResponseUrlPost {
  readonly url: string;
  readonly body: Record<string, unknown>;
}

const DEFAULT_WAIT_MS = 5000;

/**
 * A twin of Slack for tests that drive the real @slack/web-api, @slack/socket-mode and Bolt over
 * real sockets: the Web API at `apiUrl` (what Bolt's `slackApiUrl` takes), a Socket Mode
 * WebSocket on the same server, files up and down, and a workspace whose people write DMs,
 * channel messages, thread replies and slash commands and press buttons.
 */
export class FakeSlack {
  readonly botToken: string;
  readonly appToken: string;
  readonly origin: string;
  /** `${origin}/api/`: the Web API root. */
  readonly apiUrl: string;
  readonly workspace: Workspace;
  readonly socket: SocketModeServer;
  /** What response_urls received. */
  readonly responses: ResponseUrlPost[] = [];
  /** Set: people's actions go to the app's request URL (the Events API) instead of Socket Mode. */
  httpEvents: HttpEvents | undefined;

  private constructor(
    private readonly server: Server,
    private readonly deps: WebApiDeps & ActionDeps,
  ) {
    this.botToken = deps.botToken;
    this.appToken = deps.appToken;
    this.origin = deps.origin;
    this.apiUrl = `${deps.origin}/api/`;
    this.workspace = deps.workspace;
    this.socket = deps.socket;
  }

  static async start(options: FakeSlackOptions = {}): Promise<FakeSlack> {
    const changes = new Changes();
    const workspace = new Workspace(
      { teamId: 'T0FAKE', teamName: 'fake-team', appId: 'A0FAKE', botId: 'B0FAKEBOT', botUserId: 'U0FAKEBOT', botName: 'bridge' },
      changes,
    );
    const socket = new SocketModeServer(changes, options.socketMode);
    const server = createServer();
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The deliveries below reach the twin made from these deps.
    let fake: FakeSlack | undefined;
    const deps: WebApiDeps & ActionDeps = {
      workspace,
      socket,
      origin,
      changes,
      botToken: options.botToken ?? 'xoxb-0000-fake-bot-token',
      appToken: options.appToken ?? 'xapp-1-A0FAKE-fake-app-token',
      calls: [],
      planned: [],
      scopes: options.scopes ? new Set(options.scopes) : undefined,
      rateLimits: options.rateLimits ? new RateLimits(options.rateLimits === true ? {} : options.rateLimits) : undefined,
      ticket: () => socket.ticket(),
      deliver: (type, payload) => (fake?.httpEvents ? fake.httpEvents.push(type, payload) : socket.push(type, payload)),
    };
    fake = new FakeSlack(server, deps);
    const made = fake;
    server.on('request', (req, res) => void made.route(req, res));
    server.on('upgrade', (req, sock, head) => socket.upgrade(req, sock, head));
    return made;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = new URL(req.url ?? '/', this.origin).pathname;
    try {
      const api = /^\/api\/([\w.]+)$/.exec(path);
      if (api && req.method === 'POST') return await handleApiCall(this.deps, this.origin, api[1]!, req, body, res);
      const upload = /^\/upload\/v1\/(\w+)$/.exec(path);
      if (upload && req.method === 'POST') return await handleUpload(this.workspace, upload[1]!, req, body, res);
      const download = /^\/files-pri\/\w+-(\w+)\//.exec(path);
      if (download && req.method === 'GET')
        return handleDownload(this.workspace, this.botToken, !this.deps.scopes || this.deps.scopes.has(DOWNLOAD_SCOPE), download[1]!, req, res);
      if (/^\/(commands|actions)\//.test(path) && req.method === 'POST') {
        this.responses.push({ url: path, body: JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown> });
        this.deps.changes.notify();
        res.writeHead(200).end('ok');
        return;
      }
      res.writeHead(404).end('not found');
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  }

  // --- the workspace ----------------------------------------------------------------------

  addUser(user: { id?: string; name: string; realName?: string; displayName?: string }): SlackUser {
    return this.workspace.addUser(user);
  }

  /** A channel with these people (the bot in it unless `botIsMember: false`). */
  addChannel(channel: { id?: string; name: string; members: string[]; botIsMember?: boolean; isPrivate?: boolean }): SlackChannel {
    return this.workspace.addChannel(channel);
  }

  get botUserId(): string {
    return this.workspace.identity.botUserId;
  }

  // --- what people do ---------------------------------------------------------------------

  /** A person writes to the bot in their DM. */
  dm(options: Omit<SayOptions, 'channel'>): { message: StoredMessage; channel: string; envelopes: Envelope[] } {
    const channel = this.workspace.imWith(options.user).id;
    return { ...say(this.deps, { ...options, channel }), channel };
  }

  /** A person writes in a channel, or (threadTs) in a thread of it. */
  say(options: SayOptions & { channel: string }): { message: StoredMessage; envelopes: Envelope[] } {
    return say(this.deps, options);
  }

  /** `/bridge <text>` (or `command`) in a channel or DM. */
  slashCommand(options: { channel: string; user: string; text: string; command?: string }): Envelope {
    return slashCommand(this.deps, options);
  }

  pressButton(options: { channel: string; ts: string; user: string; text: string | RegExp }): Envelope {
    return pressButton(this.deps, options);
  }

  /** From now on, what people do is posted to `url`, signed with `signingSecret`, as the Events API does. */
  deliverEventsTo(url: string, signingSecret: string): HttpEvents {
    this.httpEvents = new HttpEvents(this.deps.changes, url, signingSecret);
    return this.httpEvents;
  }

  /** Slack asks the app to reconnect (`disconnect`, `refresh_requested`). */
  disconnect(reason?: string): void {
    this.socket.disconnect(reason);
  }

  // --- what the app did ---------------------------------------------------------------------

  get calls(): readonly SlackCall[] {
    return this.deps.calls;
  }

  callsTo(method: string): SlackCall[] {
    return this.deps.calls.filter((c) => c.method === method);
  }

  /** A channel's messages now (edited, without deleted ones); `thread`: the thread's root and replies. */
  messages(channel: string, thread?: string): StoredMessage[] {
    return this.workspace.messagesIn(channel, thread === undefined ? {} : { thread });
  }

  /** One message as it is now, deleted ones included (see `deleted`). */
  message(channel: string, ts: string): StoredMessage | undefined {
    return this.workspace.message(channel, ts);
  }

  /** The statuses a thread was given, in order (`''`: taken away, by the bot or by its reply there); its status now is the last. */
  threadStatuses(channel: string, threadTs: string): readonly string[] {
    return this.workspace.threadStatuses.get(`${channel}/${threadTs}`) ?? [];
  }

  botMessages(channel: string, thread?: string): StoredMessage[] {
    return this.workspace.messagesIn(channel, { ...(thread === undefined ? {} : { thread }), bot: true });
  }

  get ephemeral(): readonly EphemeralMessage[] {
    return this.workspace.ephemeral;
  }

  get envelopes(): readonly Envelope[] {
    return this.httpEvents?.envelopes ?? this.socket.envelopes;
  }

  buttonsOf(message: StoredMessage): ReturnType<typeof buttonsOf> {
    return buttonsOf(message);
  }

  /** The bytes of a file the app uploaded. */
  fileContent(id: string): Buffer | undefined {
    return this.workspace.files.get(id)?.content;
  }

  // --- steering -------------------------------------------------------------------------------

  /** The next call of `method` ('*': any) answers `error` (or, with retryAfter, a 429). */
  failNext(method: string, error: string, options: { retryAfter?: number } = {}): void {
    this.deps.planned.push({ method, error, ...options });
  }

  /** Rate limits on (with these options) or off from now on. */
  setRateLimits(options: RateLimitOptions | false): void {
    this.deps.rateLimits = options ? new RateLimits(options) : undefined;
  }

  waitFor<T>(check: Check<T>, timeoutMs = DEFAULT_WAIT_MS): Promise<T> {
    return waitUntil(this.deps.changes, check, timeoutMs, () => this.describeRecent());
  }

  waitForBotMessage(channel: string, match: (message: StoredMessage) => boolean = () => true, timeoutMs = DEFAULT_WAIT_MS): Promise<StoredMessage> {
    return this.waitFor(() => this.botMessages(channel).find(match), timeoutMs);
  }

  private describeRecent(): string {
    const calls = this.deps.calls.slice(-15).map((c) => `  ${c.method} → ${c.status} ${c.ok ? 'ok' : c.error} ${JSON.stringify(c.params).slice(0, 160)}`);
    const envelopes = this.socket.envelopes.slice(-5).map((e) => `  ${e.type} ${e.ackedAt ? `acked in ${e.ackMs} ms` : 'unacked'} (retries ${e.retries})`);
    return `Recent Web API calls:\n${calls.join('\n') || '  none'}\nRecent envelopes:\n${envelopes.join('\n') || '  none'}\nSocket Mode connections open: ${this.socket.openConnections}`;
  }

  async close(): Promise<void> {
    this.socket.close();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
