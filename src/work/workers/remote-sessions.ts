import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { LiveLaunch, PermissionAnswerer } from '../../engine/session/live-cli.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { connect, describeRedis, followOutages } from './redis.ts';
import { SessionStreamReader } from './session-stream.ts';
import { grantContext, type BridgeKeys } from './bridge-keys.ts';
import { KeptStates, type PackedSession } from './session-state.ts';
import { sendSessionAsk, sessionKeyOf, sessionStream, type SessionAsk, type SessionEvent } from './session-protocol.ts';
import type { QueueSigner } from './signing.ts';
import { queueWaited, type QueueCensus } from '../../services/telemetry/metrics-queue.ts';
import { describeWork, workCensus } from './work-census.ts';
import { WorkerRegistry } from './worker-registry.ts';
import { SessionPlacer, type Placed, type PlacerParts, type Tell } from './session-placer.ts';
import { RemoteLiveCli, type RemoteSide, type RemoteTurn } from './remote-live-cli.ts';

export interface RemoteSessionsOptions {
  redisUrl: string;
  /** The queue secret: workers' states are checked with it (it admits a worker). */
  signer: QueueSigner;
  /** The bridge's own keys: each placement's channel and bearer, the grants sealed for workers, leases, kept states. */
  keys: BridgeKeys;
  /** Grants `bearer` on the bridge's MCP endpoint for what the session's own secret `token` may do, until revoked; undefined when `token` is not known there. */
  delegateTools?: PlacerParts['delegateTools'];
  /** Where sessions' states are kept (private files). */
  dataDir: string;
  /** A worker silent this long is taken for dead (BRIDGE_WORKER_LOCK_SECONDS). */
  leaseMs: number;
  keepSeconds: number;
  log: Log;
}

/** How often work waiting for a worker looks again. */
const WAIT_FOR_WORKER_MS = 500;

/** /status and a metrics scrape wait this long for Redis, and no longer. */
const DESCRIBE_WITHIN_MS = 2000;

/**
 * The bridge's one client of its workers: each session (a run's, or a chat's with
 * BRIDGE_SESSION_WORKERS) placed on one (SessionPlacer), its turns, steering, stops and
 * answers sent sealed, its reports followed. A turn whose worker is lost goes to another, in the
 * session's state as last copied back, the chat told in one line; one a restart of the bridge
 * cut short is followed again where it went on.
 */
export class RemoteSessions implements RemoteSide {
  private readonly commands: Redis;
  private readonly reader: SessionStreamReader;
  readonly registry: WorkerRegistry;
  private readonly sessions = new Map<string, Placed>();
  private readonly states: KeptStates;
  private watch: NodeJS.Timeout | undefined;
  private readonly placer: SessionPlacer;
  private closing = false;
  /** The Redis the workers are reached through, for what chats are told. */
  private readonly where: string;
  /** Since when that Redis has been unreachable, while it is. */
  private downSince: number | undefined;
  private readonly availableListeners: (() => void)[] = [];

  constructor(private readonly options: RemoteSessionsOptions) {
    const { log, redisUrl } = options;
    this.commands = connect(redisUrl);
    this.where = `the queue's Redis (${describeRedis(redisUrl)})`;
    followOutages(this.commands, this.where, log, {
      down: () => {
        this.downSince ??= Date.now();
        log.warn(`${this.where} is unreachable: runs on workers go on; new ones wait until it is back`);
      },
      up: () => {
        this.downSince = undefined;
        for (const listener of this.availableListeners) listener();
      },
    });
    this.registry = new WorkerRegistry(this.commands, options.signer, options.leaseMs, options.keys.own);

    this.states = new KeptStates(options.dataDir, options.keys.sealer('session-states'), log);
    this.reader = new SessionStreamReader(
      connect(redisUrl),
      this.commands,
      options.keys.own,
      options.keepSeconds,
      (error) => log.warn(`reading sessions' reports failed: ${error.message}`),
      (stream, why) => log.warn({ session: stream }, `refused from Redis: ${why}`),
    );
    this.placer = new SessionPlacer({
      ...options,
      registry: this.registry,
      reader: this.reader,
      onEvent: (placed, attempt, event) => this.onEvent(placed, attempt, event),
    });
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
    for (const placed of this.sessions.values()) placed.tools?.revoke();
    await this.reader.close();
    await this.commands.quit().catch(() => {});
  }

  /**
   * The kept CLI of a session on a worker: a chat's, or a run's (`key`: what it is known by).
   * `placedOn` hears each worker it is placed on; `lines`: its turns report their raw lines.
   */
  process(
    key: string,
    launch: LiveLaunch,
    answer: PermissionAnswerer,
    tell: Tell,
    hooks: Pick<Placed, 'placedOn' | 'lines' | 'noun' | 'what' | 'mcpServers' | 'trace'> = {},
  ): RemoteLiveCli {
    const sessionKey = sessionKeyOf(key);
    const placed = this.sessions.get(sessionKey) ?? { sessionKey, tell, asked: new Set<string>() };
    Object.assign(placed, { tell, ...hooks });
    this.sessions.set(sessionKey, placed);
    return new RemoteLiveCli(sessionKey, launch, answer, this);
  }

  /** The work of `key` is over (a run ended): its session leaves its worker, and nothing of it is kept here. */
  async leave(key: string): Promise<void> {
    const sessionKey = sessionKeyOf(key);
    const placed = this.sessions.get(sessionKey);
    if (!placed) return;
    this.sessions.delete(sessionKey);
    placed.tools?.revoke();
    if (placed.attempt !== undefined) await this.reader.forget(sessionStream(sessionKey, placed.attempt)).catch(() => {});
    await this.send(placed, { type: 'leave' });
    await this.states.forget(sessionKey);
  }

  /** Why no work can go to a worker now (Redis is unreachable), or undefined. */
  unavailable(): string | undefined {
    if (this.downSince === undefined) return undefined;
    return `${this.where} is unreachable since ${new Date(this.downSince).toISOString().slice(11, 19)} UTC`;
  }

  /** Called whenever work can go to workers again after Redis was unreachable. */
  onAvailable(listener: () => void): void {
    this.availableListeners.push(listener);
  }

  /** Where work runs, for /status: answers within DESCRIBE_WITHIN_MS whatever Redis does. */
  async describe(): Promise<string> {
    const down = this.unavailable();
    return down ? `on workers, but ${down}` : describeWork(this.where, await this.census(), DESCRIBE_WITHIN_MS);
  }

  /** The work at one look, for the metrics and /status; undefined when Redis is away or does not answer in time. */
  async census(): Promise<QueueCensus | undefined> {
    return this.unavailable() ? undefined : workCensus(this.registry, this.sessions.values(), DESCRIBE_WITHIN_MS);
  }

  workerOf(sessionKey: string): string | undefined {
    return this.sessions.get(sessionKey)?.worker;
  }

  run(turn: RemoteTurn): void {
    const placed = this.sessions.get(turn.cli.sessionKey)!;
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
      this.options.log.error({ err: error, session: placed.sessionKey }, 'a turn could not be sent to a worker');
      turn.endWithout('failed', `The turn could not be sent to a worker: ${error.message}`);
    });
  }

  /**
   * A turn taking up one a restart of the bridge cut short: when the cut one is the last sent to
   * the session's worker (its state says so), at work or ended there since, it is followed from where
   * the last bridge stopped reading rather than sent again, and the worker says again what may
   * have gone unread: the requests it waits on, or how it ended. False: it is sent as any turn.
   */
  private async adopt(placed: Placed, turn: RemoteTurn): Promise<boolean> {
    const { sessionKey } = placed;
    const lease = await this.registry.lease(sessionKey);
    if (!lease) return false;
    const worker = (await this.registry.alive()).find((state) => state.name === lease.worker && state.publicKey === lease.publicKey);
    // The last turn sent there, if it is this one (its id begins with the owner's): at work, or ended while no bridge read it.
    const turnId = worker?.working?.[sessionKey];
    if (!turnId || !turn.options.turnId || !turnId.startsWith(`${turn.options.turnId}.`)) return false;
    await this.placer.follow(placed, lease);
    turn.id = turnId;
    placed.placedOn?.(lease.worker);
    // Its CLI holds this placement's bearer: granted again for what the session's secret may do.
    this.placer.withBearer(placed, turn.cli.describe(turn.cli.sessionId));
    this.options.log.info({ session: sessionKey }, `a turn went on on worker ${lease.worker} while the bridge restarted: followed again`);
    await this.ask(sessionKey, { type: 'attach', turnId });
    if (turn.stopReason !== undefined) this.stop(turn, turn.stopReason);
    return true;
  }

  stop(turn: RemoteTurn, reason: string): void {
    const placed = this.sessions.get(turn.cli.sessionKey);
    // Not on a worker yet (waiting for one): it ends here.
    if (!placed?.worker || placed.turn !== turn || !turn.id) return turn.endWithout('stopped', reason);
    void this.ask(placed.sessionKey, { type: 'stop', turnId: turn.id, reason });
  }

  /** An ask of the session's worker; no `close` while the bridge closes (its sessions go on there, followed again at its restart). */
  async ask(sessionKey: string, ask: SessionAsk): Promise<void> {
    const placed = this.sessions.get(sessionKey);
    if (placed && !(ask.type === 'close' && this.closing)) await this.send(placed, ask);
  }

  /** An ask to the session's worker in its placement, once it has one; a failure is logged, not thrown. */
  private async send(placed: Placed, ask: SessionAsk): Promise<void> {
    const { sessionKey, worker, attempt, channel } = placed;
    if (!worker || attempt === undefined || !channel) return;
    await sendSessionAsk(this.commands, channel, worker, { sessionKey, attempt, ask }).catch((error: Error) =>
      this.options.log.warn({ session: sessionKey }, `an ask for a session on a worker was not sent: ${error.message}`),
    );
  }

  /**
   * Sends the turn to the session's worker, placing the session first when it has none alive: on the
   * least loaded, with its session's state; with no worker alive, the chat is told once and the
   * turn waits for one (a Stop ends it).
   */
  private async dispatch(placed: Placed, turn: RemoteTurn, again?: string): Promise<void> {
    const sentOff = Date.now();
    let told: string | undefined;
    // Each reason it waits is said once: Redis away, then no worker.
    const wait = async (why: string) => {
      if (told !== why) placed.tell(why);
      told = why;
      placed.waiting = true;
      await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_WORKER_MS));
    };
    let placement;
    for (;;) {
      if (turn.isOver || this.closing) return;
      if (this.downSince !== undefined) {
        await wait(
          placed.noun
            ? `${placed.noun} cannot reach a worker: ${this.where} is unreachable. It waits until it is back.`
            : `This chat's workers cannot be reached: ${this.where} is unreachable. The message waits until it is back.`,
        );
        continue;
      }
      placement = await this.placer.place(placed);
      if (placement) break;
      await wait(
        placed.noun
          ? `No worker is connected to run ${placed.noun}: it waits until one is.`
          : 'No worker is connected to run this chat: the message waits until one is.',
      );
    }
    placed.waiting = false;
    if (turn.isOver) return;
    queueWaited(Date.now() - sentOff);
    placed.placedOn?.(placement.worker);
    const on = `${placed.noun ? `${placed.noun} continues` : 'Continuing'} on worker ${placement.worker}`;
    if (placement.previous) placed.tell(`${on}: worker ${placement.previous} stopped.`);
    else if (again) placed.tell(`${on}: ${again}.`);
    const state = placement.fresh ? await this.states.read(placed.sessionKey) : undefined;
    let resumeId = turn.cli.sessionId;
    let restore: PackedSession | undefined;
    if (state && (state.sessionId === resumeId || again !== undefined || placement.previous)) {
      restore = { sessionId: state.sessionId, packed: state.packed, bytes: state.bytes };
      resumeId = state.sessionId;
    } else if (placement.fresh && (again !== undefined || placement.previous)) resumeId = undefined; // nothing copied back yet: a fresh session
    // Named by its owner's id too: a restarted bridge knows it by that (see adopt).
    turn.id = `${turn.options.turnId ?? 'turn'}.${randomUUID()}`;
    const launch = this.placer.withBearer(placed, {
      ...turn.cli.describe(resumeId),
      what: placed.what,
      ...(placed.mcpServers?.length ? { mcpServers: placed.mcpServers } : {}),
    });
    const { keys } = this.options;
    const grant = keys.grant(placed.publicKey!, grantContext(placed.sessionKey, placement.attempt), {
      key: keys.channelKey(placed.sessionKey, placement.attempt).toString('base64'),
    });
    const limits = {
      ...(turn.options.timeoutMs ? { timeoutMs: turn.options.timeoutMs } : {}),
      ...(turn.options.silenceMs ? { silenceMs: turn.options.silenceMs } : {}),
    };
    await sendSessionAsk(
      this.commands,
      placed.channel!,
      placement.worker,
      {
        sessionKey: placed.sessionKey,
        attempt: placement.attempt,
        ask: {
          type: 'turn',
          turnId: turn.id,
          launch,
          prompt: turn.prompt,
          limits,
          planning: turn.options.planning ?? false,
          state: restore,
          ...(placed.lines ? { lines: true } : {}),
          trace: placed.trace,
        },
      },
      grant,
    );
    // Stopped while it was being sent: the stop follows it.
    if (turn.stopReason !== undefined) this.stop(turn, turn.stopReason);
  }

  private async onEvent(placed: Placed, attempt: number, event: SessionEvent): Promise<void> {
    if (placed.attempt !== attempt) return;
    const turn = placed.turn;
    switch (event.kind) {
      case 'event':
        if (turn?.id === event.turnId) turn.observe(event.event);
        return;
      case 'lines':
        for (const line of event.lines) turn?.line(line);
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
        return this.ask(placed.sessionKey, { type: 'decide', requestId: event.request.requestId, decision });
      }
      case 'state':
        return this.states.keep(placed.sessionKey, attempt, event.state);
      case 'state-refused':
        this.options.log.warn({ session: placed.sessionKey }, `a session's state was not copied back: ${event.why}`);
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
    // Moved once: the worker's own word that it left and its lapsed lease can both come for one turn.
    const from = placed.worker;
    if (turn.isOver || from === undefined) return;
    // The chat hears of the move once the new worker is known.
    placed.worker = undefined;
    await this.registry.release(placed.sessionKey).catch(() => {});
    this.options.log.warn({ session: placed.sessionKey }, `a turn lost its worker ${from} (${why}): sending it again`);
    await this.dispatch(placed, turn, `worker ${from} stopped`).catch((error: Error) =>
      turn.endWithout('failed', `The turn could not be sent again: ${error.message}`),
    );
  }

  /** Turns at work whose worker's lease lapsed (it died): moved. */
  private async watchTurns(): Promise<void> {
    for (const placed of this.sessions.values()) {
      const turn = placed.turn;
      if (!turn || turn.isOver || placed.attempt === undefined || !placed.worker) continue;
      const lease = await this.registry.lease(placed.sessionKey).catch(() => 'unknown' as const);
      if (lease === 'unknown') continue; // Redis away: nothing is known
      if (lease?.attempt === placed.attempt) continue;
      await this.moveTurn(placed, turn, 'its lease lapsed');
    }
  }
}
