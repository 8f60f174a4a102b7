import { existsSync, rmSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type { EngineSettings } from '../../engine/engine-settings.ts';
import type { QueueSettings } from './queue-settings.ts';
import type { Settings } from '../../kernel/settings/bridge-manifest.ts';
import { readSessionFiles, writeSessionFiles } from '../../engine/adapters/session-files.ts';
import type { PermissionRequest } from '../../engine/session/live-cli.ts';
import { AgentSession } from '../../engine/session/session.ts';
import { LivePool } from '../../engine/session/live-pool.ts';
import type { PermissionDecision } from '../../kernel/protocols/events.ts';
import { agentReadableFolder } from '../../engine/process/agent-space.ts';
import { mcpAccessFor } from '../tools/mcp-config.ts';
import { AgentSpans } from '../../services/telemetry/traced-agent.ts';
import { observeWorkerRuns } from '../../services/telemetry/metrics-queue.ts';
import { contextOf } from '../../services/telemetry/trace-context.ts';
import type { DrainDeadline, Drainable, DrainHolder, DrainOutcome } from './worker-drain.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { Secrets } from '../../kernel/log/secrets.ts';
import { answered, connect, followOutages, describeRedis } from './redis.ts';
import { SessionStreamWriter } from './session-stream.ts';
import { packSessionState, unpackFiles } from './session-state.ts';
import { onAsks, sessionStream, takeSessionAsks, type SessionAsk, type SessionAskFor, type SessionEvent } from './session-protocol.ts';
import { operatorServers, sessionConfigOf, sessionFilesPlace } from './worker-launch.ts';
import type { Hosted } from './hosted-session.ts';
import type { QueueSigner } from './signing.ts';
import type { WorkerKeys } from './worker-keys.ts';
import { WorkerPresence } from './worker-registry.ts';

export interface SessionHostOptions {
  config: Pick<EngineSettings, 'adapters' | 'cliEnv' | 'dataDir' | 'sandbox'> &
    Pick<QueueSettings, 'sessionWorkers'> & { settings: Settings; redisUrl: string };
  /** The queue secret: signs this worker's state (it admits the worker). */
  signer: QueueSigner;
  /** This worker's own key pair: each session's placement here comes with its channel's key sealed for it. */
  keys: WorkerKeys;
  name: string;
  log: Log;
  secrets: Secrets;
}

/** Nonces of asks taken kept to refuse replays: far more than the asks of their validity (minutes). */
const TAKEN_KEPT = 50_000;

/** How long a session's CLI waits for one call of the bridge's tools. */
const TOOL_TIMEOUT_MS = 10 * 60_000;

/**
 * The sessions a worker holds: each one's CLI session, given turns, steering, stops and
 * permission answers as the bridge asks through its inbox, reporting its events on the
 * placement's stream and copying the CLI's session state back after each turn. A CLI that can
 * stay up between turns does (at most BRIDGE_WORKER_LIVE_SESSIONS processes: the least recently
 * used idle one closes, its state back with the bridge already); any other runs a process per
 * turn, resuming its session, as it would on the bridge.
 */
export class SessionHost implements DrainHolder {
  private readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly presence: WorkerPresence;
  private readonly sessions = new Map<string, Hosted>();
  private readonly taken = new Set<string>();
  /** The bound on CLI processes kept between turns here; the bridge closes idle ones itself. */
  private readonly live: LivePool;
  private mcpDir: string | undefined;
  private closing = false;
  private stopObserving: (() => void) | undefined;

  constructor(private readonly options: SessionHostOptions) {
    const { config, log } = options;
    this.commands = connect(config.redisUrl);
    const where = `Redis (${describeRedis(config.redisUrl)})`;
    followOutages(this.commands, where, log, {
      down: () => log.warn(`${where} is unreachable: the work here goes on, and its reports wait until it is back`),
    });
    this.subscriber = connect(config.redisUrl);
    this.live = new LivePool({ max: config.sessionWorkers.liveSessions, idleMs: Infinity });
    this.presence = new WorkerPresence(
      this.commands,
      options.signer,
      options.name,
      options.keys.publicKey,
      config.sessionWorkers.liveSessions,
      config.settings.workers.lockSeconds * 1000,
      () => [...this.sessions.keys()],
      () => [...this.sessions.values()].filter((hosted) => hosted.session?.agent.hasLiveProcess || hosted.turn).length,
      (error) => log.warn(`saying what this worker holds failed: ${error.message}`),
      () => Object.fromEntries([...this.sessions.values()].flatMap((hosted) => (hosted.last ? [[hosted.sessionKey, hosted.last.id]] : []))),
    );
  }

  /**
   * Listens for the bridge's asks, then says what it can take. Redis refusing the credentials
   * fails the start (nothing would ever work); Redis unreachable is waited for.
   */
  async start(): Promise<void> {
    const { config, log, name } = this.options;
    await answered(this.commands, `Redis (${describeRedis(config.redisUrl)}) refused this worker`);
    await onAsks(this.subscriber, name, () => void this.takeAsks());
    await this.presence.start();
    await this.takeAsks();
    this.stopObserving = observeWorkerRuns(() => [...this.sessions.values()].filter((hosted) => hosted.turn).length);
    // Its own configuration decides its walls (BRIDGE_SANDBOX): said where the operator looks first.
    const { decision } = config.sandbox;
    const walls = decision.on ? `in walls (${decision.why}, through this worker's own egress and credential proxies)` : `without walls (${decision.why})`;
    log.info(
      `worker ${name} taking work from ${describeRedis(config.redisUrl)}, CLIs ${walls}, keeping up to ${config.sessionWorkers.liveSessions} CLI processes between turns`,
    );
  }

  /** The drain's first step (DrainHolder): no session is placed here from now on. */
  async stopTaking(): Promise<void> {
    await this.presence.markDraining();
  }

  /**
   * What the drain waits on: each session held here. A turn at work gets until the
   * deadline to end; one still at work then is given back to the bridge (which sends its
   * message again on another worker). Either way the session's lease is let go, so its next
   * message goes elsewhere, with its state as last copied back.
   */
  drainables(): Drainable[] {
    return [...this.sessions.values()].map((hosted) => ({
      what: hosted.what,
      finishOrHandBack: async (deadline: DrainDeadline): Promise<DrainOutcome> => {
        // A session's queue settles once its turn has ended and its state and answer are reported.
        const ended = await Promise.race([hosted.queue.then(() => true), deadline.reached.then(() => false)]);
        if (!ended && hosted.turn) {
          // Interrupted as Stop interrupts it: its session keeps what it did, and goes on elsewhere with it.
          hosted.givingBack = `worker ${this.options.name} stopped`;
          await hosted.session?.agent.stop(`its worker (${this.options.name}) is shutting down`);
          await hosted.queue;
        }
        await this.drop(hosted, true);
        return ended ? 'finished' : 'handed back';
      },
    }));
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.stopObserving?.();
    await Promise.all([...this.sessions.values()].map((hosted) => this.drop(hosted, true)));
    await this.presence.leave().catch(() => {});
    this.subscriber.disconnect();
    await this.commands.quit().catch(() => {});
  }

  private async takeAsks(): Promise<void> {
    const asks = await takeSessionAsks(this.commands, this.options.name, this.options.keys, this.taken, (why) =>
      this.options.log.warn(`refused from Redis: ${why}`),
    ).catch((error: Error) => {
      this.options.log.warn(`reading the sessions' asks failed: ${error.message}`);
      return [];
    });
    for (const ask of asks) this.enqueue(ask);
    // Asks expire in minutes: the nonces of the oldest taken need not be kept past a bound.
    if (this.taken.size > TAKEN_KEPT) for (const nonce of [...this.taken].slice(0, this.taken.size - TAKEN_KEPT / 2)) this.taken.delete(nonce);
  }

  private enqueue(given: SessionAskFor): void {
    const hosted = this.hostedFor(given);
    const { ask } = given;
    if (!hosted) return;
    // A turn sent while another runs: the bridge restarted and sends its turn again; the old one ends first (its answer goes nowhere).
    if (ask.type === 'turn' && hosted.turn && hosted.turn.id !== ask.turnId) {
      this.options.log.info({ session: hosted.sessionKey }, 'a turn was sent again (its bridge restarted): the one at work here stops first');
      void hosted.session?.agent.stop('the bridge sent this turn again');
    }
    // Steering, stops and answers act at once (a turn waits on them); turns and closes in order.
    if (ask.type === 'steer' || ask.type === 'stop' || ask.type === 'decide' || ask.type === 'attach') return void this.act(hosted, ask);
    hosted.queue = hosted.queue
      .then(() => this.act(hosted, ask))
      .catch((error: Error) => this.options.log.error({ session: hosted.sessionKey, err: error }, 'a session ask failed'));
  }

  /** The session an ask is for, in its placement: the one held here, or, for a turn, one placed here now. */
  private hostedFor({ sessionKey, attempt, ask }: SessionAskFor): Hosted | undefined {
    const held = this.sessions.get(sessionKey);
    if (held && attempt < held.attempt) return void this.options.log.warn({ session: sessionKey }, 'refused an ask for an older placement of a session');
    if (held?.attempt === attempt) return held;
    // Placed here again (it was elsewhere meanwhile): the process here holds an older state.
    if (held) void this.drop(held, false);
    const channel = this.options.keys.held(sessionKey, attempt);
    if (ask.type !== 'turn' || !channel) return undefined;
    const keepSeconds = this.options.config.settings.workers.keepHours * 3600;
    const hosted: Hosted = {
      sessionKey,
      attempt,
      states: 0,
      events: new SessionStreamWriter(this.commands, channel, sessionStream(sessionKey, attempt), attempt, keepSeconds, (text) =>
        this.options.secrets.redact(text),
      ),
      what: `session ${sessionKey}`,
      decisions: new Map(),
      queue: Promise.resolve(),
    };
    this.sessions.set(sessionKey, hosted);
    void this.presence.beat(); // the bridge places the next session knowing this one is here
    return hosted;
  }

  private async act(hosted: Hosted, ask: SessionAsk): Promise<void> {
    switch (ask.type) {
      case 'turn':
        return this.startTurn(hosted, ask).catch((error: Error) => {
          this.options.log.error({ session: hosted.sessionKey, err: error }, `${hosted.what}: a turn failed here: ${error.message}`);
          if (hosted.turn?.id === ask.turnId) hosted.turn = undefined;
          this.ended(hosted, { kind: 'failed', turnId: ask.turnId, why: `it failed on worker ${this.options.name}: ${error.message}` });
        });
      case 'steer':
        if (hosted.turn?.id === ask.turnId && !hosted.session?.agent.steer(ask.text, ask.id))
          this.options.log.warn({ session: hosted.sessionKey }, 'a message came as the turn was ending: it was not delivered');
        return;
      case 'stop':
        if (hosted.turn?.id === ask.turnId) await hosted.session?.agent.stop(ask.reason);
        return;
      case 'decide': {
        const waiting = hosted.decisions.get(ask.requestId);
        hosted.decisions.delete(ask.requestId);
        return waiting?.decide(ask.decision);
      }
      case 'attach': {
        // A restarted bridge follows the turn again: what may have gone unread it says again (an ending twice is one).
        if (hosted.last?.id !== ask.turnId) return;
        if (hosted.last.ending) return hosted.events.report(hosted.last.ending);
        for (const { request } of hosted.decisions.values()) hosted.events.report({ kind: 'permission', turnId: ask.turnId, request });
        return;
      }
      case 'leave':
        this.options.log.info({ session: hosted.sessionKey }, 'a session left this worker: its work is over');
        return this.drop(hosted, true);
      case 'close': {
        // Only the process: the session stays placed here, its session's files with it.
        if (hosted.session?.agent.hasLiveProcess)
          this.options.log.info({ session: hosted.sessionKey }, "a session's CLI closed here, as the bridge asked (idle, or its options changed)");
        return hosted.session?.agent.closeLive();
      }
    }
  }

  private async startTurn(hosted: Hosted, ask: Extract<SessionAsk, { type: 'turn' }>): Promise<void> {
    const { log, name } = this.options;
    const fail = (why: string) => {
      log.warn({ session: hosted.sessionKey }, `${hosted.what}: a turn was not run here: ${why}`);
      this.ended(hosted, { kind: 'failed', turnId: ask.turnId, why });
    };
    hosted.last = { id: ask.turnId };
    const launch = ask.launch;
    if (launch.what) hosted.what = launch.what;
    const adapter = this.options.config.adapters.get(launch.cli);
    if (!adapter) return fail(`worker ${name} has no CLI named ${launch.cli}`);
    if (!existsSync(launch.cwd)) return fail(`its directory ${launch.cwd} does not exist on worker ${name}`);
    const env = this.options.config.cliEnv;
    hosted.netAllow = launch.walls?.netAllow ?? [];
    const files = sessionFilesPlace(env, launch, adapter);
    if (ask.state) {
      if (!adapter.savedSessions) return fail(`${adapter.name} names no place for its sessions here`);
      try {
        await writeSessionFiles(adapter.savedSessions, launch.cwd, files.env, unpackFiles(ask.state.packed), files.owner);
      } catch (error) {
        return fail(`its session's state could not be put back: ${(error as Error).message}`);
      }
    }
    // The operator's MCP servers it names, configured from this worker's own file.
    const operator = await operatorServers(launch, this.options.config.dataDir, name);
    if ('lacking' in operator) return fail(operator.lacking);
    const { servers } = operator;
    // The bridge's tools: their config file written once per secret (a new secret, a new file).
    if (hosted.tools?.token !== launch.spec.mcp?.token) this.forgetTools(hosted);
    let mcp = hosted.tools;
    if (launch.spec.mcp && !mcp) {
      const others = Object.fromEntries((launch.mcpServers ?? []).map((server) => [server, servers[server]!]));
      mcp = mcpAccessFor(adapter, launch.spec.mcp, (this.mcpDir ??= agentReadableFolder('mcp')), `session-${hosted.sessionKey}`, TOOL_TIMEOUT_MS, others);
      hosted.tools = mcp;
      this.options.secrets.add(mcp.token);
    }
    const { config, key } = sessionConfigOf(launch, {
      adapter,
      env,
      mcp,
      servers,
      dataDir: this.options.config.dataDir,
      live: this.live,
      onPermission: (request, turn) => this.askBridge(hosted, request, turn.signal),
      netAllow: () => hosted.netAllow,
      log: log.child({ session: hosted.sessionKey }),
    });
    if (hosted.session && hosted.session.key !== key) await this.endSession(hosted);
    const session = (hosted.session ??= { agent: new AgentSession(config), key }).agent;
    if (session.cliSessionId !== launch.spec.resumeId) session.continueFrom(launch.spec.resumeId);
    const turnId = ask.turnId;
    log.info(
      { session: hosted.sessionKey, cli: adapter.name, cwd: launch.cwd },
      `${hosted.what}: a turn started here${ask.state ? ', its session restored' : ''}`,
    );
    hosted.turn = { id: turnId };
    void this.presence.beat(); // a bridge restarted from now on follows this turn rather than cutting it
    // Its part here, in the bridge's trace of the work (where the bridge sent one).
    const parent = contextOf(ask.trace);
    const spans = parent && AgentSpans.process({ work: 'run', cli: adapter.name, provider: adapter.provider, ids: {}, parent }, name);
    const outcome = await session.send(ask.prompt, {
      onEvent: (event) => {
        spans?.observe(event);
        hosted.events.report({ kind: 'event', turnId, event });
      },
      // In batches, each before the event that follows it (the writer's own).
      ...(ask.lines ? { onLine: (line: string) => hosted.events.line(line) } : {}),
      ...ask.limits,
      planning: ask.planning,
    });
    spans?.outcome(outcome);
    spans?.end();
    if (hosted.turn?.id !== turnId) return; // given back meanwhile (a drain)
    hosted.turn = undefined;
    log.info({ session: hosted.sessionKey }, `${hosted.what}: its turn ended here: ${outcome.status}`);
    const sessionId = outcome.sessionId ?? session.cliSessionId;
    if (sessionId && adapter.savedSessions) {
      const saved = await readSessionFiles(adapter.savedSessions, launch.cwd, sessionId, files.env, files.owner);
      const packed = packSessionState(hosted.attempt, ++hosted.states, sessionId, saved);
      if ('state' in packed) hosted.events.report({ kind: 'state', state: packed.state });
      else {
        log.warn({ session: hosted.sessionKey }, `a session's state was not copied back: ${packed.refused}`);
        hosted.events.report({ kind: 'state-refused', why: packed.refused });
      }
    }
    if (hosted.givingBack) return hosted.events.report({ kind: 'lost', turnId, why: hosted.givingBack });
    this.ended(hosted, { kind: 'done', turnId, outcome });
  }

  /** The turn ended (or could not start): the bridge hears how, and it is kept for a bridge restarted meanwhile. */
  private ended(hosted: Hosted, ending: Extract<SessionEvent, { kind: 'done' | 'failed' }>): void {
    if (hosted.last?.id === ending.turnId) hosted.last.ending = ending;
    hosted.events.report(ending);
  }

  /** A permission request of the session's CLI, asked of the bridge (its people, by buttons); the turn ending answers it no. */
  private askBridge(hosted: Hosted, request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    const turnId = hosted.turn?.id ?? '';
    return new Promise((resolve) => {
      hosted.decisions.set(request.requestId, { request, decide: resolve });
      signal.addEventListener('abort', () => resolve({ behavior: 'deny', message: 'The turn ended.' }), { once: true });
      hosted.events.report({ kind: 'permission', turnId, request });
    });
  }

  /** Ends the session's CLI session here: its turn, if one runs, and its process. */
  private async endSession(hosted: Hosted): Promise<void> {
    const session = hosted.session?.agent;
    hosted.session = undefined;
    if (!session) return;
    await session.stop('the session left this worker').catch(() => {});
    await session.closeLive().catch(() => {});
  }

  /** Stops a session's process here; `release`: and lets its lease go (it is no longer here). */
  private async drop(hosted: Hosted, release: boolean): Promise<void> {
    if (this.sessions.get(hosted.sessionKey) === hosted) this.sessions.delete(hosted.sessionKey);
    this.options.keys.forget(hosted.sessionKey, hosted.attempt);
    for (const { decide } of hosted.decisions.values()) decide({ behavior: 'deny', message: 'The session left this worker.' });
    hosted.decisions.clear();
    await this.endSession(hosted);
    this.forgetTools(hosted);
    await hosted.events.close().catch(() => {});
    if (release) await this.presence.release(hosted.sessionKey).catch(() => {});
  }

  private forgetTools(hosted: Hosted): void {
    if (hosted.tools?.configFile) rmSync(hosted.tools.configFile, { force: true });
    if (hosted.tools) this.options.secrets.remove(hosted.tools.token);
    hosted.tools = undefined;
  }
}
