import type { Adapter } from '../adapters/load.ts';
import { Turn } from './turn.ts';
import type { RunningTurn, TurnHandlers, TurnOutcome } from './running-turn.ts';
import { canRunLive } from '../adapters/live.ts';
import { liveOnlyProtocols } from '../../kernel/protocols/index.ts';
import { LiveCli, liveLaunchKey, type LiveLaunch, type PermissionAnswerer } from './live-cli.ts';
import type { LiveHolder } from './live-pool.ts';
import type { LiveProcess, Reroute, SessionConfig, SessionOptions } from './session-config.ts';
import type { Stopped, TurnControls } from './turn-controls.ts';
import type { AgentCommand } from '../../kernel/protocols/index.ts';

/** How many times one turn may move on to another CLI: past the longest chain of CLIs there are. */
const MAX_HANDOVERS = 4;

interface Pending {
  prompt: string;
  options: TurnControls;
  resolve(outcome: TurnOutcome): void;
  /** Stopped while its fresh options were being read: it never starts. */
  dropped?: boolean;
  /** A turn the CLI already runs (a carried one): followed, never started. */
  running?: RunningTurn;
}

/**
 * One conversation with one CLI. Turns run one at a time, in the order they were sent;
 * each continues the CLI's own session. Nothing here knows who is talking: chats,
 * subagent runs and tests drive it alike.
 */
export class AgentSession implements LiveHolder {
  private resumeId: string | undefined;
  /** Bumped when the session is forgotten or replaced: a turn of an older one no longer names the session. */
  private generation = 0;
  private readonly queue: Pending[] = [];
  private current: RunningTurn | undefined;
  /** The CLI kept between turns, where it can be (config.live). */
  private liveCli: LiveProcess | undefined;
  /** The turn out of the queue whose fresh options are being read: running, as far as anyone can tell. */
  private starting: Pending | undefined;
  /** A live CLI past the pool's bound, kept only until the turns it runs of its own (carried) have ended. */
  private unkept: LiveProcess | undefined;
  private draining = false;

  constructor(private readonly config: SessionConfig) {
    this.resumeId = config.resumeId;
  }

  get cliSessionId(): string | undefined {
    return this.resumeId;
  }

  get adapter(): Adapter {
    return this.config.adapter;
  }

  get busy(): boolean {
    return this.current !== undefined || this.starting !== undefined;
  }

  /** Turns waiting behind the one running. */
  get queued(): number {
    return this.queue.filter((pending) => !pending.running).length;
  }

  /** Queues a turn; resolves with its outcome once it has run (or was dropped by `stop`). */
  send(prompt: string, options: TurnControls = {}): Promise<TurnOutcome> {
    return new Promise((resolve) => {
      this.queue.push({ prompt, options, resolve });
      void this.drain();
    });
  }

  /**
   * Whether a turn could take a message while it works: a live CLI, or one reading its input
   * (config.liveInput), that has not shown it does not name messages back (ProcessMessages).
   */
  get steerable(): boolean {
    if (!this.runsLive && !(this.config.liveInput === true && this.config.adapter.streamInput)) return false;
    return this.namesMessages !== false;
  }

  /** Whether the running turn's CLI names messages back: undefined while it has not shown either way. */
  get namesMessages(): boolean | undefined {
    return this.current?.namesMessages ?? this.liveCli?.namesMessages;
  }

  /** Whether turns run in a CLI kept between them. */
  get runsLive(): boolean {
    return this.config.live !== undefined && canRunLive(this.config.adapter);
  }

  get liveLastUsed(): number {
    return this.liveCli?.lastUsed ?? 0;
  }

  /** The worker the kept CLI runs on, when it runs on one. */
  get liveWhere(): string | undefined {
    return this.liveCli?.where;
  }

  /** The agent's own slash commands, as its process listed them (none before it started). */
  get agentCommands(): readonly AgentCommand[] {
    return this.liveCli?.agentCommands ?? [];
  }

  /** Whether a CLI process is kept up for this session now. */
  get hasLiveProcess(): boolean {
    return this.liveCli?.isAlive ?? false;
  }

  /**
   * Stops the running turn (a live CLI's through its interrupt: the process and the session
   * stay) and drops the queued ones (they resolve as stopped without running), unless told to
   * keep them. Resolves when the turn has ended.
   */
  async stop(reason: string, options: { keepQueued?: boolean } = {}): Promise<Stopped> {
    const dropped = options.keepQueued ? 0 : this.dropQueued(reason);
    const starting = this.starting;
    if (starting) {
      starting.dropped = true;
      starting.resolve(notRun(reason));
    }
    const running = this.current;
    const untaken = running?.untaken ?? 0;
    if (running) await running.stop(reason);
    return { running: !!(running || starting), dropped: dropped + untaken };
  }

  /**
   * Drops the queued turns (they resolve as stopped without running) and leaves the running
   * one be (a carried one too, which waits in line to be followed): a draining bridge starts none.
   */
  dropQueued(reason: string): number {
    const dropped = this.queue.filter((pending) => !pending.running);
    this.queue.splice(0, this.queue.length, ...this.queue.filter((pending) => pending.running));
    for (const pending of dropped) pending.resolve(notRun(reason));
    return dropped.length;
  }

  /** Closes the live CLI process, if any, once no turn runs in it; the session resumes in a new one. */
  async closeLive(): Promise<void> {
    if (this.liveCli && !this.busy) await this.dropLive(this.liveCli);
  }

  /** Forgets `cli` as the process kept for this session, and closes it. */
  private async dropLive(cli: LiveProcess): Promise<void> {
    if (this.liveCli === cli) this.liveCli = undefined;
    this.config.live?.release(this);
    await cli.close();
  }

  /**
   * A message for the running turn's CLI, which reads it while it works (config.liveInput);
   * false when there is none or it takes no more: send it as a turn instead.
   */
  steer(text: string, id: string): boolean {
    return this.current?.send(text, id) ?? false;
  }

  /** Pauses the running turn's timeout (see Turn.holdTimeout); a no-op when idle. */
  holdTimeout(): () => void {
    return this.current?.holdTimeout() ?? (() => {});
  }

  /** Forget the CLI session: the next turn starts a fresh one. */
  reset(): void {
    this.continueFrom(undefined);
  }

  /** The next turn continues this CLI session instead (found by /resume), or a fresh one. */
  continueFrom(sessionId: string | undefined): void {
    this.resumeId = sessionId;
    this.generation++;
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        if (next.running) {
          next.resolve(await this.follow(next.running, next, { started: true }, this.generation));
          await this.settleLive();
          continue;
        }
        // Failing to read them is no reason to fail the turn: it runs with the options it has.
        this.starting = next;
        const back = await this.reroute(() => this.config.handover?.before?.(next.prompt));
        const latest = await this.freshOptions();
        const lacking = await this.config.lacks?.(this.config.adapter);
        this.starting = undefined;
        if (next.dropped) continue; // stopped meanwhile, and already answered
        // Answered at once, in one line, rather than left to a CLI that would wait for minutes.
        if (lacking) {
          next.resolve(notRun(lacking, 'failed'));
          continue;
        }
        const turn = back ? { ...next, prompt: back.prompt } : next;
        const stale = this.resumeId;
        let outcome = await this.runTurn(turn, latest);
        if (stale && this.isUnknownSession(outcome)) {
          // The CLI no longer knows the session (deleted, another machine): start afresh rather than fail every turn.
          this.resumeId = undefined;
          // An ACP agent (whose session/load a restart depends on) is briefed on the work so far from the bridge's notes.
          const briefed = liveOnlyProtocols.has(this.adapter.protocol) ? this.config.handover?.lostSession?.(turn.prompt) : undefined;
          const fresh = await this.runTurn(briefed ? { ...turn, prompt: briefed } : turn, latest, { started: true });
          outcome = {
            ...fresh,
            notice: `${this.adapter.name} no longer knows the previous session (${stale}), so this message started a fresh one${briefed ? ', told what the bridge saw of the work so far' : ''}.`,
          };
        }
        outcome = await this.goOnElsewhere(next, outcome);
        next.resolve(outcome);
      }
    } finally {
      this.draining = false;
    }
  }

  private async freshOptions(): Promise<SessionOptions> {
    return (await this.config.freshOptions?.().catch(() => undefined)) ?? {};
  }

  /** Moves the session as `decide` says (another CLI, its session), keeping the turn at work meanwhile. */
  private async reroute(decide: () => Promise<Reroute | undefined> | undefined): Promise<Reroute | undefined> {
    const reroute = await decide();
    if (reroute) this.continueFrom(reroute.resumeId);
    return reroute;
  }

  /**
   * A turn its CLI's limit stopped goes on in the CLI the owner moves the session to, as the
   * same turn (its message is answered once), for as long as each next CLI is limited too.
   */
  private async goOnElsewhere(pending: Pending, first: TurnOutcome): Promise<TurnOutcome> {
    let outcome = first;
    const handover = this.config.handover;
    for (let moves = 0; handover && outcome.status === 'failed' && outcome.limit && !pending.dropped && moves < MAX_HANDOVERS; moves++) {
      this.starting = pending;
      const limited = outcome;
      const elsewhere = await this.reroute(() => handover.afterLimit(limited, pending.prompt));
      const latest = elsewhere ? await this.freshOptions() : {};
      this.starting = undefined;
      if (!elsewhere || pending.dropped) break;
      outcome = await this.runTurn({ ...pending, prompt: elsewhere.prompt }, latest, { started: true });
    }
    return outcome;
  }

  private isUnknownSession(outcome: TurnOutcome): boolean {
    const pattern = this.config.adapter.unknownSession;
    return outcome.status === 'failed' && pattern !== undefined && new RegExp(pattern).test(outcome.error ?? '');
  }

  private async runTurn(pending: Pending, fresh: SessionOptions, again: { started?: boolean } = {}): Promise<TurnOutcome> {
    const refused = this.config.refusal?.();
    if (refused) return notRun(refused, 'failed');
    const { config } = this;
    const { prompt, options } = pending;
    const generation = this.generation;
    const handlers = this.handlers(options, generation);
    const spec = { ...config.options, ...fresh, resumeId: this.resumeId, cwd: config.cwd };
    // A session kept elsewhere (a worker) goes there for every turn: its CLI stays up there if it can, else runs a process a turn.
    if (this.runsLive || config.liveProcess) return this.runLive(pending, spec, handlers, again);
    let turn: Turn;
    try {
      // The session's CLI, directory, environment, walls and output, with this turn's limits.
      const { timeoutMs, silenceMs } = options;
      turn = new Turn({ ...config, timeoutMs, silenceMs, spec: { ...spec, prompt, permissions: config.permissions, liveInput: config.liveInput } }, handlers);
    } catch (error) {
      // An option this CLI cannot take: a clear failure, not a crash.
      return notRun((error as Error).message, 'failed');
    }
    return this.follow(turn, pending, again, generation);
  }

  /**
   * A turn in the CLI kept between turns: the same process when nothing its command line
   * depends on has changed and it continues this session, else a new one resuming it. Past
   * the pool's bound (every process busy), the process lives for this turn only.
   */
  private async runLive(pending: Pending, spec: LiveLaunch['spec'], handlers: TurnHandlers, again: { started?: boolean }): Promise<TurnOutcome> {
    const { config, generation } = this;
    const { adapter, cwd, env, graceMs, log, walls, permissions } = config;
    const mode = permissions === 'ask' || permissions === 'safe' ? permissions : config.watched ? 'ask' : 'bypass';
    const launch: LiveLaunch = { adapter, cwd, env, spec, mode, graceMs, log, walls };
    let cli = this.liveCli;
    if (cli && (!cli.isAlive || cli.key !== liveLaunchKey(launch) || cli.sessionId !== this.resumeId)) {
      await this.dropLive(cli);
      cli = undefined;
    }
    if (!cli) {
      try {
        const answer = config.onPermission ?? denyAll;
        cli = config.liveProcess ? config.liveProcess(launch, answer) : new LiveCli(launch, answer);
      } catch (error) {
        return notRun((error as Error).message, 'failed');
      }
      this.liveCli = cli;
    }
    const keep = config.live?.admit(this) ?? true;
    const turn = cli.startTurn(pending.prompt, handlers, pending.options);
    const outcome = await this.follow(turn, pending, again, generation);
    if (!keep || !cli.isAlive) this.unkept = cli;
    await this.settleLive();
    return outcome;
  }

  /** A process that may not stay (past the pool's bound, or gone) is let go once it runs no turn of its own (a carried one). */
  private async settleLive(): Promise<void> {
    const cli = this.unkept;
    if (!cli || (cli.isAlive && cli.busy)) return;
    this.unkept = undefined;
    await this.dropLive(cli);
  }

  /** A turn's callbacks, which also adopt the session id the moment the CLI names it. */
  private handlers(options: TurnControls, generation: number): TurnHandlers {
    return {
      onLine: options.onLine,
      onUnsteered: options.onUnsteered,
      onEvent: (event) => {
        // Persist the id as soon as the CLI names it: a bridge killed mid-turn still resumes.
        if (event.type === 'started') this.adoptSessionId(event.sessionId, generation);
        options.onEvent?.(event);
      },
      onCarried:
        options.onCarried &&
        ((ids, follow) => {
          const carried = options.onCarried!(ids);
          const running = follow(this.handlers(carried, generation), carried);
          // At work from now on (a steer goes into it, a stop stops it), and first in line to be followed.
          this.current = running;
          carried.onStart?.();
          this.queue.unshift({ prompt: '', options: carried, resolve: (outcome) => carried.ended(outcome), running });
        }),
    };
  }

  private async follow(turn: RunningTurn, { options }: Pending, again: { started?: boolean }, generation: number): Promise<TurnOutcome> {
    this.current = turn;
    if (!again.started) options.onStart?.();
    const outcome = await turn.done;
    // A turn the CLI took by itself may be at work already (a carried one).
    if (this.current === turn) this.current = undefined;
    if (outcome.sessionId) this.adoptSessionId(outcome.sessionId, generation);
    return outcome;
  }

  private adoptSessionId(id: string, generation: number): void {
    if (generation !== this.generation || id === this.resumeId) return;
    this.resumeId = id;
    this.config.onResumeId?.(id);
  }
}

/** A live CLI whose owner answers no permission requests: nothing needing permission runs. */
const denyAll: PermissionAnswerer = async () => ({ behavior: 'deny', message: 'Nobody can approve tools in this session.' });

function notRun(reason: string, status: 'stopped' | 'failed' = 'stopped'): TurnOutcome {
  return { status, text: '', error: reason, exit: { type: 'exit', code: null, signal: null }, durationMs: 0 };
}
