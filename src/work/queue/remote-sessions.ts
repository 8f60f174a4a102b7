import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { LiveLaunch, PermissionAnswerer } from '../../engine/session/live-cli.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { connect, describeRedis, followOutages, PREFIX } from './redis.ts';
import { RunEventsReader } from './run-events.ts';
import { grantContext, type BridgeKeys } from './bridge-keys.ts';
import type { SealedChannel } from './channel.ts';
import { KeptStates } from './kept-states.ts';
import type { PackedSession } from './session-state.ts';
import { sendSessionAsk, sessionStream, type SessionAsk, type SessionEvent, type SessionGrant, type SessionLaunch } from './session-protocol.ts';
import type { QueueSigner } from './signing.ts';
import { WorkerRegistry, type Lease, type WorkerState } from './worker-registry.ts';
import { RemoteLiveCli, type RemoteSide, type RemoteTurn } from './remote-live-cli.ts';

export interface RemoteSessionsOptions {
  redisUrl: string;
  /** The queue secret: workers' states are checked with it (it admits a worker). */
  signer: QueueSigner;
  /** The bridge's own keys: each placement's channel and bearer, the grants sealed for workers, leases, kept states. */
  keys: BridgeKeys;
  /**
   * Grants `bearer` on the bridge's MCP endpoint for what the session's own secret `token` may
   * do, until the returned function revokes it (or `token` is revoked); undefined when `token`
   * is not known there.
   */
  delegateTools?: (token: string, bearer: string) => (() => void) | undefined;
  /** Where chats' session states are kept (private files). */
  dataDir: string;
  /** A worker silent this long is taken for dead (BRIDGE_WORKER_LOCK_SECONDS). */
  leaseMs: number;
  keepSeconds: number;
  log: Log;
}

/** Says a line in the chat (a move to another worker, no worker to run it). */
export type Tell = (text: string) => void;

/** A chat's session as the bridge follows it on the workers. */
interface Placed {
  chatId: string;
  /** The worker and placement it has now (none before its first turn), and the placement's channel and the worker's key. */
  worker?: string;
  attempt?: number;
  channel?: SealedChannel;
  publicKey?: string;
  /** The placement's bearer on the MCP endpoint, for the session's secret `token`: revoked when the placement ends. */
  tools?: { token: string; attempt: number; revoke: () => void };
  turn?: RemoteTurn;
  tell: Tell;
  /** Permission requests of the turn at work, answered once each. */
  asked: Set<string>;
}

/** How often a chat waiting for a worker looks again. */
const WAIT_FOR_WORKER_MS = 500;

/**
 * The bridge's side of chats' sessions on workers (BRIDGE_SESSION_WORKERS): places each chat
 * on the least loaded worker and keeps it there (a lease in Redis its worker renews), sends its
 * turns, steering, stops and answers through the signed queue traffic, follows its events, and
 * keeps the session state its worker copies back after each turn. When the lease lapses (the
 * worker died) or the worker gives the session back (it drains), the next turn, or the turn at
 * work sent again, goes to another worker with that state, and the chat is told in one line.
 */
export class RemoteSessions implements RemoteSide {
  private readonly commands: Redis;
  private readonly reader: RunEventsReader;
  readonly registry: WorkerRegistry;
  private readonly chats = new Map<string, Placed>();
  private readonly states: KeptStates;
  private watch: NodeJS.Timeout | undefined;
  /** Placements made lately: a worker's state counts them only from its next beat. */
  private recent: { worker: string; at: number }[] = [];
  private placing: Promise<unknown> = Promise.resolve();
  private closing = false;
  /** The Redis the workers are reached through, for what the chats are told. */
  private readonly where: string;
  /** Since when that Redis has been unreachable, while it is. */
  private downSince: number | undefined;

  constructor(private readonly options: RemoteSessionsOptions) {
    const { log, redisUrl } = options;
    this.commands = connect(redisUrl);
    this.where = `Redis (${describeRedis(redisUrl)})`;
    followOutages(this.commands, `${this.where} for chats' sessions`, log, {
      down: () => (this.downSince ??= Date.now()),
      up: () => (this.downSince = undefined),
    });
    this.registry = new WorkerRegistry(this.commands, options.signer, options.leaseMs, options.keys.own);
    this.states = KeptStates.in(options.dataDir, options.keys.sealer('session-states'), log);
    this.reader = new RunEventsReader(
      connect(redisUrl),
      this.commands,
      options.keys.own,
      options.keepSeconds,
      (error) => log.warn(`reading chats' sessions' events failed: ${error.message}`),
      (stream, why) => log.warn({ session: stream }, `refused from Redis: ${why}`),
    );
  }

  async start(): Promise<void> {
    await this.states.start();
    // Workers learn the bridge's key here (again after Redis lost it).
    const publish = () => void this.options.keys.publish(this.commands, this.options.signer).catch(() => {});
    this.commands.on('ready', publish);
    publish();
    this.watch = setInterval(() => void this.watchTurns(), Math.max(200, Math.floor(this.options.leaseMs / 2)));
    this.watch.unref();
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.watch);
    for (const placed of this.chats.values()) placed.tools?.revoke();
    await this.reader.close();
    await this.commands.quit().catch(() => {});
  }

  /** The kept CLI of a chat's session, on a worker. */
  process(chatKey: string, launch: LiveLaunch, answer: PermissionAnswerer, tell: Tell): RemoteLiveCli {
    const chatId = chatIdOf(chatKey);
    const placed = this.chats.get(chatId) ?? { chatId, tell, asked: new Set<string>() };
    placed.tell = tell;
    this.chats.set(chatId, placed);
    return new RemoteLiveCli(chatId, launch, answer, this);
  }

  workerOf(chatId: string): string | undefined {
    return this.chats.get(chatId)?.worker;
  }

  /** The workers alive now, with what they hold. */
  workers(): Promise<WorkerState[]> {
    return this.registry.alive();
  }

  run(turn: RemoteTurn): void {
    const placed = this.chats.get(turn.cli.chatId)!;
    placed.turn = turn;
    void turn.done.then(() => {
      if (placed.turn === turn) placed.turn = undefined;
      placed.asked.clear();
    });
    const start = async () => {
      if (turn.options.takingUp && (await this.adopt(placed, turn))) return;
      await this.dispatch(placed, turn);
    };
    void start().catch((error: Error) => {
      this.options.log.error({ err: error, chat: placed.chatId }, 'a turn could not be sent to a worker');
      turn.endWithout('failed', `The turn could not be sent to a worker: ${error.message}`);
    });
  }

  /**
   * A turn taking up one a restart of the bridge cut short: when the cut one is the last sent to
   * the chat's worker (its state says so), at work or ended there since, it is followed from where
   * the last bridge stopped reading rather than sent again, and the worker says again what may
   * have gone unread: the requests it waits on, or how it ended. False: it is sent as any turn.
   */
  private async adopt(placed: Placed, turn: RemoteTurn): Promise<boolean> {
    const { chatId } = placed;
    const lease = await this.registry.lease(chatId);
    if (!lease) return false;
    const worker = (await this.registry.alive()).find((state) => state.name === lease.worker && state.publicKey === lease.publicKey);
    // The last turn sent there, if it is this one (its id begins with the owner's): at work, or ended while no bridge read it.
    const turnId = worker?.working?.[chatId];
    if (!turnId || !turn.options.turnId || !turnId.startsWith(`${turn.options.turnId}.`)) return false;
    await this.follow(placed, lease);
    turn.id = turnId;
    // Its CLI holds this placement's bearer: granted again for what the session's secret may do.
    this.withBearer(placed, turn.cli.describe(turn.cli.sessionId));
    this.options.log.info({ chat: chatId }, `a chat's turn went on on worker ${lease.worker} while the bridge restarted: followed again`);
    await this.ask(turn, { type: 'attach', turnId });
    if (turn.stopReason !== undefined) this.stop(turn, turn.stopReason);
    return true;
  }

  steer(turn: RemoteTurn, text: string, id: string): void {
    void this.ask(turn, { type: 'steer', turnId: turn.id, text, id });
  }

  stop(turn: RemoteTurn, reason: string): void {
    const placed = this.chats.get(turn.cli.chatId);
    // Not on a worker yet (waiting for one): it ends here.
    if (!placed?.worker || placed.turn !== turn || !turn.id) return turn.endWithout('stopped', reason);
    void this.ask(turn, { type: 'stop', turnId: turn.id, reason });
  }

  async closeProcess(chatId: string): Promise<void> {
    const placed = this.chats.get(chatId);
    if (this.closing || !placed?.worker || placed.attempt === undefined || !placed.channel) return;
    await sendSessionAsk(this.commands, placed.channel, placed.worker, { chatId, attempt: placed.attempt, ask: { type: 'close' } }).catch(() => {});
  }

  private async ask(turn: RemoteTurn, ask: SessionAsk): Promise<void> {
    const placed = this.chats.get(turn.cli.chatId);
    if (!placed?.worker || placed.attempt === undefined || !placed.channel) return;
    await sendSessionAsk(this.commands, placed.channel, placed.worker, { chatId: placed.chatId, attempt: placed.attempt, ask }).catch((error: Error) =>
      this.options.log.warn({ chat: placed.chatId }, `an ask for a chat's session was not sent: ${error.message}`),
    );
  }

  /**
   * Sends the turn to the chat's worker, placing the chat first when it has none alive: on the
   * least loaded, with its session's state; with no worker alive, the chat is told once and the
   * turn waits for one (a Stop ends it).
   */
  private async dispatch(placed: Placed, turn: RemoteTurn, again?: string): Promise<void> {
    let told: string | undefined;
    // Each reason it waits is said once: Redis away, then no worker.
    const wait = async (why: string) => {
      if (told !== why) placed.tell(why);
      told = why;
      await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_WORKER_MS));
    };
    let placement;
    for (;;) {
      if (turn.isOver || this.closing) return;
      if (this.downSince !== undefined) {
        await wait(`This chat's workers cannot be reached: ${this.where} is unreachable. The message waits until it is back.`);
        continue;
      }
      placement = await this.place(placed);
      if (placement) break;
      await wait('No worker is connected to run this chat: the message waits until one is.');
    }
    if (turn.isOver) return;
    if (placement.previous) placed.tell(`Continuing on worker ${placement.worker}: worker ${placement.previous} stopped.`);
    else if (again) placed.tell(`Continuing on worker ${placement.worker}: ${again}.`);
    const state = placement.fresh ? await this.states.read(placed.chatId) : undefined;
    let resumeId = turn.cli.sessionId;
    let restore: PackedSession | undefined;
    if (state && (state.sessionId === resumeId || again !== undefined || placement.previous)) {
      restore = { sessionId: state.sessionId, packed: state.packed, bytes: state.bytes };
      resumeId = state.sessionId;
    } else if (placement.fresh && (again !== undefined || placement.previous)) resumeId = undefined; // nothing copied back yet: a fresh session
    // Named by its owner's id too: a restarted bridge knows it by that (see adopt).
    turn.id = `${turn.options.turnId ?? 'turn'}.${randomUUID()}`;
    const launch = this.withBearer(placed, turn.cli.describe(resumeId));
    const { keys } = this.options;
    const grant = keys.grant(placed.publicKey!, grantContext('chat', placed.chatId, placement.attempt), {
      key: keys.channelKey('chat', placed.chatId, placement.attempt).toString('base64'),
    } satisfies SessionGrant);
    const limits = {
      ...(turn.options.timeoutMs ? { timeoutMs: turn.options.timeoutMs } : {}),
      ...(turn.options.silenceMs ? { silenceMs: turn.options.silenceMs } : {}),
    };
    await sendSessionAsk(
      this.commands,
      placed.channel!,
      placement.worker,
      {
        chatId: placed.chatId,
        attempt: placement.attempt,
        ask: {
          type: 'turn',
          turnId: turn.id,
          launch,
          prompt: turn.prompt,
          limits,
          planning: turn.options.planning ?? false,
          state: restore,
        },
      },
      grant,
    );
    // Stopped while it was being sent: the stop follows it.
    if (turn.stopReason !== undefined) this.stop(turn, turn.stopReason);
  }

  /** The chat's worker: the one its lease names while that one is alive and takes chats, else the least loaded (a new placement). */
  private async place(placed: Placed): Promise<{ worker: string; attempt: number; fresh: boolean; previous?: string } | undefined> {
    const { chatId } = placed;
    const lease = await this.registry.lease(chatId);
    const alive = await this.registry.alive();
    // Alive with the key it was placed with (one started again under its name has another: the chat is placed anew).
    if (lease && alive.some((state) => state.name === lease.worker && !state.draining && state.publicKey === lease.publicKey)) {
      if (placed.attempt !== lease.attempt) await this.follow(placed, lease);
      return { worker: lease.worker, attempt: lease.attempt, fresh: false };
    }
    const previous = lease?.worker ?? placed.worker;
    // One placement at a time: each knows of the one before it.
    const placing = this.placing.then(() => this.placeAnew(chatId));
    this.placing = placing.catch(() => undefined);
    const pick = await placing;
    if (!pick) return undefined;
    await this.follow(placed, pick);
    this.options.log.info({ chat: chatId }, `a chat's session placed on worker ${pick.worker}${previous ? ` (it was on ${previous})` : ''}`);
    return { worker: pick.worker, attempt: pick.attempt, fresh: true, ...(previous && previous !== pick.worker ? { previous } : {}) };
  }

  /** The least loaded worker, leased to the chat under a new placement number. */
  private async placeAnew(chatId: string): Promise<Lease | undefined> {
    const pick = await this.registry.pick(undefined, this.placedSince());
    if (!pick) return undefined;
    this.recent.push({ worker: pick.name, at: Date.now() });
    const attempt = await this.commands.incr(`${PREFIX}:chat:${chatId}:placements`);
    const lease: Lease = { worker: pick.name, attempt, publicKey: pick.publicKey };
    await this.registry.grant(chatId, lease);
    return lease;
  }

  /**
   * The launch as its worker gets it: with the placement's own bearer for the bridge's tools in
   * place of the session's secret (which never leaves the bridge), granted for what that secret
   * may do until the placement ends, or the session's secret is revoked.
   */
  private withBearer(placed: Placed, launch: SessionLaunch): SessionLaunch {
    const token = launch.spec.mcp?.token;
    const attempt = placed.attempt!;
    if (!token || !this.options.delegateTools) {
      placed.tools?.revoke();
      placed.tools = undefined;
      const { mcp: _, ...spec } = launch.spec;
      return { ...launch, spec };
    }
    const bearer = this.options.keys.bearer('chat', placed.chatId, attempt);
    if (placed.tools?.token !== token || placed.tools.attempt !== attempt) {
      placed.tools?.revoke();
      const revoke = this.options.delegateTools(token, bearer);
      placed.tools = revoke && { token, attempt, revoke };
    }
    return { ...launch, spec: { ...launch.spec, mcp: { ...launch.spec.mcp!, token: bearer } } };
  }

  /** Chats placed on each worker within the last beat or so (a quarter of a lease, twice over). */
  private placedSince(): Map<string, number> {
    const since = Date.now() - this.options.leaseMs / 2;
    this.recent = this.recent.filter((placement) => placement.at >= since);
    const counts = new Map<string, number>();
    for (const { worker } of this.recent) counts.set(worker, (counts.get(worker) ?? 0) + 1);
    return counts;
  }

  /** Follows the chat's placement now; the last one's bearer ends with it. */
  private async follow(placed: Placed, lease: Lease): Promise<void> {
    const { worker, attempt, publicKey } = lease;
    if (placed.attempt !== undefined) await this.reader.forget(sessionStream(placed.chatId, placed.attempt)).catch(() => {});
    placed.tools?.revoke();
    placed.tools = undefined;
    placed.worker = worker;
    placed.attempt = attempt;
    placed.publicKey = publicKey;
    const channel = this.options.keys.channel('chat', placed.chatId, attempt);
    placed.channel = channel;
    await this.reader.follow<SessionEvent>(
      sessionStream(placed.chatId, attempt),
      { channel: (given) => (given === attempt ? channel : undefined) },
      (event) =>
        void this.onEvent(placed, attempt, event).catch((error: Error) =>
          this.options.log.error({ err: error, chat: placed.chatId }, `an event of a chat's session on a worker failed: ${error.message}`),
        ),
    );
  }

  private async onEvent(placed: Placed, attempt: number, event: SessionEvent): Promise<void> {
    if (placed.attempt !== attempt) return;
    const turn = placed.turn;
    switch (event.kind) {
      case 'event':
        if (turn?.id === event.turnId) turn.observe(event.event);
        return;
      case 'permission': {
        if (turn?.id !== event.turnId || placed.asked.has(event.request.requestId)) return;
        placed.asked.add(event.request.requestId);
        let decision;
        try {
          decision = await turn.cli.answer(event.request, { signal: turn.ended.signal, hold: () => () => {} });
        } catch (error) {
          decision = { behavior: 'deny' as const, message: `The bridge could not decide: ${(error as Error).message}` };
        }
        return this.ask(turn, { type: 'decide', requestId: event.request.requestId, decision });
      }
      case 'state':
        return this.states.keep(placed.chatId, attempt, event.state);
      case 'state-refused':
        this.options.log.warn({ chat: placed.chatId }, `a chat's session state was not copied back: ${event.why}`);
        placed.tell(`This chat's session was not copied back from its worker (${event.why}): if that worker stops, the chat's next message starts afresh.`);
        return;
      case 'done':
        if (turn?.id === event.turnId) turn.end(event.outcome);
        return;
      case 'failed':
        if (turn?.id === event.turnId) turn.endWithout('failed', `Worker ${placed.worker}: ${event.why}`);
        return;
      case 'lost':
        if (turn?.id === event.turnId) await this.moveTurn(placed, turn, event.why);
        return;
    }
  }

  /** The turn at work lost its worker: sent again, with its own message, to another worker in the session as last copied back. */
  private async moveTurn(placed: Placed, turn: RemoteTurn, why: string): Promise<void> {
    if (turn.isOver) return;
    const from = placed.worker;
    await this.registry.release(placed.chatId).catch(() => {});
    this.options.log.warn({ chat: placed.chatId }, `a chat's turn lost its worker ${from} (${why}): sending it again`);
    // The chat hears of the move once the new worker is known.
    placed.worker = undefined;
    await this.dispatch(placed, turn, `worker ${from} stopped`).catch((error: Error) =>
      turn.endWithout('failed', `The turn could not be sent again: ${error.message}`),
    );
  }

  /** Turns at work whose worker's lease lapsed (it died): moved. */
  private async watchTurns(): Promise<void> {
    for (const placed of this.chats.values()) {
      const turn = placed.turn;
      if (!turn || turn.isOver || placed.attempt === undefined || !placed.worker) continue;
      const lease = await this.registry.lease(placed.chatId).catch(() => 'unknown' as const);
      if (lease === 'unknown') continue; // Redis away: nothing is known
      if (lease?.attempt === placed.attempt) continue;
      await this.moveTurn(placed, turn, 'its lease lapsed');
    }
  }
}

/** A chat's id in Redis: its key hashed (a chat's key holds ids people may not want in Redis). */
export function chatIdOf(chatKey: string): string {
  return `c${createHash('sha256').update(chatKey).digest('hex').slice(0, 24)}`;
}
