import { Changes } from '../fake-telegram/changes.ts';
import { waitUntil, type Check } from '../fake-telegram/wait-for.ts';
import { CallLog, type RecordedCall } from './call-log.ts';
import { guildDispatch } from './dispatches.ts';
import { Gateway, Intent, type GatewaySession } from './gateway.ts';
import { listen, type RunningServer } from '../loopback-server.ts';
import { Interactions, type InteractionRecord } from './interactions.ts';
import { RateLimits } from './rate-limits.ts';
import { createRequestListener } from './rest-router.ts';
import { pressButton, runCommand, send, startThread, type ActionDeps, type SendOptions } from './user-actions.ts';
import { ChannelType, World, type MessageRecord } from './world.ts';

export interface FakeDiscordOptions {
  /** The bot's id (and its application's); its token starts with it in base64. */
  readonly botId?: string;
  readonly botName?: string;
  /** The developer portal's Message Content switch; default on. Off: asking for the intent closes 4014. */
  readonly messageContentIntent?: boolean;
  /** Discord's per-channel limit of 5 messages per 5 s, answered with 429s; default off. */
  readonly rateLimits?: boolean | { limit: number; windowMs: number };
  readonly heartbeatIntervalMs?: number;
  readonly port?: number;
}

/** Application flags: the privileged intents' switches, as GET /applications/@me shows them. */
export const ApplicationFlag = { GatewayGuildMembersLimited: 1 << 15, GatewayMessageContentLimited: 1 << 19 } as const;

const DEFAULT_WAIT_MS = 5000;

/**
 * A fake Discord for tests that drive the real discord.js over real sockets: the REST API
 * under `/api/v10` and the gateway WebSocket on one loopback port. Point a client at it with
 * `rest: { api: fake.apiUrl }`; the gateway's address comes from its `/gateway/bot`.
 * One guild, "Team", with a text channel `general` (`fake.general`), is there from the start.
 */
export class FakeDiscord {
  readonly token: string;
  readonly botId: string;
  readonly applicationId: string;
  /** For discord.js's `rest.api`: `http://127.0.0.1:<port>/api`. */
  readonly apiUrl: string;
  readonly origin: string;
  readonly guild: string;
  readonly general: string;
  private delay = 0;

  private constructor(
    private readonly server: RunningServer,
    private readonly deps: ActionDeps & { calls: CallLog; gateway: Gateway; limits: RateLimits | undefined },
    ids: { token: string; guild: string; general: string },
    private readonly switches: { messageContent: boolean },
  ) {
    this.token = ids.token;
    this.botId = deps.world.bot.id;
    this.applicationId = deps.world.applicationId;
    this.origin = server.origin;
    this.apiUrl = `${server.origin}/api`;
    this.guild = ids.guild;
    this.general = ids.general;
  }

  static async start(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
    const botId = options.botId ?? '1300000000000000001';
    const token = `${Buffer.from(botId).toString('base64url')}.GfAkE1.fake-discord-bot-token-secret-0123456789`;
    const world = new World({ id: botId, username: (options.botName ?? 'Bridge').toLowerCase(), global_name: options.botName ?? 'Bridge', bot: true }, botId);
    const guild = { id: world.ids.next(), name: 'Team', ownerId: world.bot.id, members: new Set([world.bot.id]) };
    world.guilds.set(guild.id, guild);
    const general = { id: world.ids.next(), type: ChannelType.GuildText, name: 'general', guildId: guild.id, botCanSee: true };
    world.channels.set(general.id, general);
    const switches = { messageContent: options.messageContentIntent ?? true };
    const flags = () => (switches.messageContent ? ApplicationFlag.GatewayMessageContentLimited : 0);
    const changes = new Changes();
    let origin = '';
    const gateway = new Gateway({
      token,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
      allowedPrivileged: () => (switches.messageContent ? Intent.MessageContent : 0),
      origin: () => origin,
      changes,
      newSessionId: () => world.ids.next(),
      ready: (session: GatewaySession) => ({
        ready: {
          v: 10,
          user: { ...world.userPayload(botId), bot: true, verified: true, flags: 0, mfa_enabled: false },
          guilds: [...world.guilds.values()].map((g) => ({ id: g.id, unavailable: true })),
          shard: [0, 1],
          application: { id: botId, flags: flags() },
          private_channels: [],
          relationships: [],
          presences: [],
          guild_join_requests: [],
          geo_ordered_rtc_regions: [],
          user_settings: {},
        },
        then: session.intents & Intent.Guilds ? [...world.guilds.values()].map((g) => ({ t: 'GUILD_CREATE', d: world.guildPayload(g) })) : [],
      }),
    });
    const limits = options.rateLimits
      ? options.rateLimits === true
        ? new RateLimits()
        : new RateLimits(options.rateLimits.limit, options.rateLimits.windowMs)
      : undefined;
    const deps = { world, gateway, interactions: new Interactions(), changes, calls: new CallLog(changes), origin: () => origin, limits };
    let fake: FakeDiscord | undefined;
    const server = await listen(
      createRequestListener({
        ...deps,
        token,
        rateLimits: limits,
        applicationFlags: flags,
        delayMs: () => fake?.delay ?? 0,
      }),
      { upgrade: (req, socket, head) => gateway.upgrade(req, socket, head), ...(options.port !== undefined ? { port: options.port } : {}) },
    );
    origin = server.origin;
    fake = new FakeDiscord(server, deps, { token, guild: guild.id, general: general.id }, switches);
    return fake;
  }

  // --- the world ------------------------------------------------------------------------

  /** A person joins the guild (GUILD_MEMBERS' look-ups find them). */
  addMember(user: string, name?: string): void {
    this.deps.world.user(user, name);
    this.deps.world.guilds.get(this.guild)!.members.add(user);
  }

  removeMember(user: string): void {
    this.deps.world.guilds.get(this.guild)!.members.delete(user);
  }

  /** Another text channel of the guild; `hidden`: the bot may not see it (50001). Dispatched as CHANNEL_CREATE. */
  addChannel(name: string, { hidden = false } = {}): string {
    const channel = { id: this.deps.world.ids.next(), type: ChannelType.GuildText, name, guildId: this.guild, botCanSee: !hidden };
    this.deps.world.channels.set(channel.id, channel);
    if (!hidden) this.deps.gateway.dispatch('CHANNEL_CREATE', guildDispatch(this.deps.world.channelPayload(channel)));
    return channel.id;
  }

  /** A channel of the server `user` may no longer see (an overwrite denying them View Channel). */
  hideChannelFrom(channel: string, user: string): void {
    const record = this.deps.world.channels.get(channel);
    if (!record) throw new Error(`FakeDiscord: no channel ${channel}`);
    (record.hiddenFrom ??= new Set()).add(user);
  }

  /** A person's DM channel with the bot (made on first use). */
  dmOf(user: string): string {
    return this.deps.world.dmWith(user).id;
  }

  // --- what people do -------------------------------------------------------------------

  /** A person writes in their DM with the bot, a guild channel or a thread. */
  send(options: SendOptions): MessageRecord {
    return send(this.deps, options);
  }

  startThread(options: { user: string; channel?: string; name: string; fromMessage?: string }): string {
    return startThread(this.deps, { ...options, channel: options.channel ?? this.general });
  }

  runCommand(options: { user: string; name?: string; channel?: string; command: string; text?: string }): InteractionRecord {
    return runCommand(this.deps, options);
  }

  pressButton(options: { user: string; name?: string; message: string; customId: string }): InteractionRecord {
    return pressButton(this.deps, options);
  }

  // --- what the bot did -----------------------------------------------------------------

  get calls(): readonly RecordedCall[] {
    return this.deps.calls.calls;
  }

  callsTo(route: string): RecordedCall[] {
    return this.calls.filter((c) => c.route === route);
  }

  /** A channel's messages, current text after edits, deleted ones and others' ephemeral ones left out. */
  messages(channel: string): MessageRecord[] {
    return this.deps.world.channelMessages(channel).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  }

  botMessages(channel: string): MessageRecord[] {
    return this.messages(channel).filter((m) => m.authorId === this.botId);
  }

  message(id: string): MessageRecord | undefined {
    return this.deps.world.messages.get(id);
  }

  get commands(): { name: string; description: string; options: unknown[] }[] {
    return this.deps.world.commands;
  }

  get interactions(): InteractionRecord[] {
    return this.deps.interactions.all;
  }

  /** Gateway ops the bot sent (identify, heartbeats, resumes). */
  get gatewayOps(): readonly { op: number; d: unknown; at: number }[] {
    return this.deps.gateway.received;
  }

  /** The URL each gateway connection came to. */
  get gatewayConnections(): readonly string[] {
    return this.deps.gateway.connections;
  }

  get liveSessions(): number {
    return this.deps.gateway.live.length;
  }

  /** A file's bytes, as people's clients download it. */
  fileBytes(attachmentId: string): Buffer | undefined {
    return this.deps.world.files.get(attachmentId)?.bytes;
  }

  // --- steering ---------------------------------------------------------------------------

  /**
   * The developer portal's Message Content switch, turned while the bot runs: GET
   * /applications/@me says so, and identifying with the intent is refused (4014).
   */
  setMessageContentIntent(on: boolean): void {
    this.switches.messageContent = on;
  }

  /** Closes every gateway connection (4000: a resumable close; 4004, 4014: for good). */
  dropGateway(code = 4000): void {
    this.deps.gateway.drop(code);
  }

  /**
   * The next `count` message calls (create, edit, delete) get a 429 asking to wait
   * `retryAfterMs`, though the bucket's headers said there was room: what a bucket shared with
   * another client of the same bot does. Needs `rateLimits`.
   */
  refuseNext(count: number, retryAfterMs = 300): void {
    if (!this.deps.limits) throw new Error('FakeDiscord: refuseNext needs rateLimits');
    this.deps.limits.refuseNext(count, retryAfterMs);
  }

  /** Every REST answer waits this long first. */
  slowDown(ms: number): void {
    this.delay = ms;
  }

  waitFor<T>(predicate: Check<T>, timeoutMs = DEFAULT_WAIT_MS): Promise<T> {
    return waitUntil(this.deps.changes, predicate, timeoutMs, () => this.deps.calls.describeRecent());
  }

  /** The first bot message in `channel` matching `match`. */
  waitForBotMessage(channel: string, match: (message: MessageRecord) => boolean = () => true, timeoutMs = DEFAULT_WAIT_MS): Promise<MessageRecord> {
    return this.waitFor(() => this.botMessages(channel).find(match), timeoutMs);
  }

  async close(): Promise<void> {
    this.deps.gateway.close();
    await this.server.close();
  }
}
