import type { Adapter } from '../adapters/load.ts';
import type { TurnOptions } from '../adapters/turn-options.ts';
import type { TurnSpec } from '../adapters/argv.ts';
import { Turn, type TurnHandlers, type TurnOutcome } from './turn.ts';
import type { Log } from '../log/logger.ts';
import type { BatchedOutput } from '../process/batched-output.ts';

/** What a session's turns run with beyond the prompt: their options, and whether the directory is trusted. */
export type SessionOptions = Omit<TurnOptions, 'cwd'> & Pick<TurnSpec, 'trusted'>;

/** Everything about a session that stays the same from turn to turn. */
export interface SessionConfig {
  adapter: Adapter;
  cwd: string;
  /** The environment CLIs run with (normally the bridge's own: API keys pass through). */
  env: Record<string, string | undefined>;
  /** The CLI's own session id from an earlier run (a restart), to resume on the first turn. */
  resumeId?: string;
  /** Every turn's options (model, tools, system prompt…); the working directory is `cwd`. */
  options?: SessionOptions;
  /** Options read afresh before each turn (agent definitions someone may have just edited, trust just given), over `options`. */
  freshOptions?: () => Promise<SessionOptions>;
  /** Tool calls that need permission are asked of the bridge, or only reading is allowed (see TurnSpec). */
  permissions?: TurnSpec['permissions'];
  graceMs?: number;
  /** Turns take messages while they work, where the CLI can (TurnSpec.liveInput; see `steer`). */
  liveInput?: boolean;
  /** Read the CLI's output in batches (background runs, where nobody waits for each line). */
  output?: BatchedOutput;
  /** Where a turn reports a listener's bug. */
  log?: Log;
  /** Called whenever the CLI's session id changes, so the owner can persist it. */
  onResumeId?(id: string): void;
}

/** How one sent turn is run and followed: its timeout and its callbacks. */
export interface TurnControls extends TurnHandlers {
  timeoutMs?: number;
  /** Called when this turn leaves the queue and its CLI starts. */
  onStart?(): void;
}

interface Pending {
  prompt: string;
  options: TurnControls;
  resolve(outcome: TurnOutcome): void;
  /** Stopped while its fresh options were being read: it never starts. */
  dropped?: boolean;
}

/**
 * One conversation with one CLI. Turns run one at a time, in the order they were sent;
 * each continues the CLI's own session. Nothing here knows who is talking: chats,
 * subagent runs and tests drive it alike.
 */
export class AgentSession {
  private resumeId: string | undefined;
  private readonly queue: Pending[] = [];
  private current: Turn | undefined;
  /** The turn out of the queue whose fresh options are being read: running, as far as anyone can tell. */
  private starting: Pending | undefined;
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
    return this.queue.length;
  }

  /** Queues a turn; resolves with its outcome once it has run (or was dropped by `stop`). */
  send(prompt: string, options: TurnControls = {}): Promise<TurnOutcome> {
    return new Promise((resolve) => {
      this.queue.push({ prompt, options, resolve });
      void this.drain();
    });
  }

  /**
   * Stops the running turn and drops the queued ones (they resolve as stopped without
   * running), unless told to keep them. Resolves when the CLI has exited. Returns how many
   * turns were stopped.
   */
  async stop(reason: string, options: { keepQueued?: boolean } = {}): Promise<number> {
    const dropped = options.keepQueued ? [] : this.queue.splice(0);
    for (const pending of dropped) pending.resolve(notRun(reason));
    const starting = this.starting;
    if (starting) {
      starting.dropped = true;
      starting.resolve(notRun(reason));
    }
    const running = this.current;
    if (running) await running.stop(reason);
    return dropped.length + (running || starting ? 1 : 0);
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
    this.resumeId = undefined;
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        // Failing to read them is no reason to fail the turn: it runs with the options it has.
        this.starting = next;
        const latest = (await this.config.freshOptions?.().catch(() => undefined)) ?? {};
        this.starting = undefined;
        if (next.dropped) continue; // stopped meanwhile, and already answered
        const stale = this.resumeId;
        let outcome = await this.runTurn(next, latest);
        if (stale && this.isUnknownSession(outcome)) {
          // The CLI no longer knows the session (deleted, another machine): start afresh rather than fail every turn.
          this.resumeId = undefined;
          const fresh = await this.runTurn(next, latest, { started: true });
          outcome = { ...fresh, notice: `${this.adapter.name} no longer knows the previous session (${stale}), so this message started a fresh one.` };
        }
        next.resolve(outcome);
      }
    } finally {
      this.draining = false;
    }
  }

  private isUnknownSession(outcome: TurnOutcome): boolean {
    const pattern = this.config.adapter.unknownSession;
    return outcome.status === 'failed' && pattern !== undefined && new RegExp(pattern).test(outcome.error ?? '');
  }

  private async runTurn({ prompt, options }: Pending, fresh: SessionOptions, again: { started?: boolean } = {}): Promise<TurnOutcome> {
    const { config } = this;
    let turn: Turn;
    try {
      turn = new Turn(
        {
          adapter: config.adapter,
          cwd: config.cwd,
          env: config.env,
          timeoutMs: options.timeoutMs,
          graceMs: config.graceMs,
          ...(config.output ? { output: config.output } : {}),
          ...(config.log ? { log: config.log } : {}),
          spec: {
            ...config.options,
            ...fresh,
            prompt,
            resumeId: this.resumeId,
            cwd: config.cwd,
            permissions: config.permissions,
            ...(config.liveInput ? { liveInput: true } : {}),
          },
        },
        {
          onLine: options.onLine,
          onEvent: (event) => {
            // Persist the id as soon as the CLI names it: a bridge killed mid-turn still resumes.
            if (event.type === 'started') this.adoptSessionId(event.sessionId);
            options.onEvent?.(event);
          },
        },
      );
    } catch (error) {
      // An option this CLI cannot take: a clear failure, not a crash.
      return { ...notRun((error as Error).message), status: 'failed' };
    }
    this.current = turn;
    if (!again.started) options.onStart?.();
    const outcome = await turn.done;
    this.current = undefined;
    if (outcome.sessionId) this.adoptSessionId(outcome.sessionId);
    return outcome;
  }

  private adoptSessionId(id: string): void {
    if (id === this.resumeId) return;
    this.resumeId = id;
    this.config.onResumeId?.(id);
  }
}

function notRun(reason: string): TurnOutcome {
  return { status: 'stopped', text: '', error: reason, exit: { type: 'exit', code: null, signal: null }, durationMs: 0 };
}
