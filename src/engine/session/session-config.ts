import type { Adapter } from '../adapters/load.ts';
import type { TurnOptions } from '../adapters/turn-options.ts';
import type { TurnSpec } from '../adapters/argv.ts';
import type { LiveLaunch, PermissionAnswerer } from './live-cli.ts';
import type { LivePool } from './live-pool.ts';
import type { TurnRun } from './turn.ts';
import type { RunningTurn, TurnHandlers, TurnLimits, TurnOutcome } from './running-turn.ts';
import type { AgentCommand } from '../../kernel/protocols/index.ts';
import type { TurnControls } from './turn-controls.ts';

/** What a session's turns run with beyond the prompt: their options, and whether the directory is trusted. */
export type SessionOptions = Omit<TurnOptions, 'cwd'> & Pick<TurnSpec, 'trusted'>;

/** Everything about a session that stays the same from turn to turn (its `permissions` and `liveInput` are each turn's TurnSpec's). */
export interface SessionConfig
  extends Pick<TurnRun, 'adapter' | 'cwd' | 'env' | 'graceMs' | 'output' | 'log' | 'walls'>, Pick<TurnSpec, 'permissions' | 'liveInput'> {
  /** The CLI's own session id from an earlier run (a restart), to resume on the first turn. */
  resumeId?: string;
  /** Every turn's options (model, tools, system prompt…); the working directory is `cwd`. */
  options?: SessionOptions;
  /** Options read afresh before each turn (agent definitions someone may have just edited, trust just given), over `options`. */
  freshOptions?: () => Promise<SessionOptions>;
  /** Called whenever the CLI's session id changes, so the owner can persist it. */
  onResumeId?(id: string): void;
  /**
   * Keep the CLI's process between turns where it can (canRunLive), within this pool's
   * bound: a turn is then a message to it, a stop its interrupt, and its permission
   * requests go to `onPermission`.
   */
  live?: LivePool;
  onPermission?: PermissionAnswerer;
  /** Where the kept CLI runs: a process here (LiveCli) unless this says elsewhere (a worker). */
  liveProcess?: (launch: LiveLaunch, answer: PermissionAnswerer) => LiveProcess;
  /**
   * Some tool calls must be asked about even when the session bypasses permissions (a rule of
   * the tool policy covers them): a CLI given its mode as its session opens (codex's app
   * server) then asks about every call, and the bridge answers those no rule covers itself.
   */
  watched?: boolean;
  /** Why a turn may not run on this CLI now (it cannot ask about each call, and a rule needs it to), or undefined. */
  refusal?: () => string | undefined;
  /** What the CLI lacks to work at all (its credentials), in one line, asked before each turn starts; undefined: nothing. */
  lacks?: (adapter: Adapter) => Promise<string | undefined>;
  /** Where a turn goes when its CLI's limit stops it, or when a CLI a limit stopped is back (see SessionHandover). */
  handover?: SessionHandover;
}

/** How a turn of a kept CLI runs: its limits, whether it plans, whether it takes up one a restart cut short (see TurnControls). */
export type LiveTurnOptions = TurnLimits & Pick<TurnControls, 'planning' | 'turnId' | 'takingUp'>;

/** A CLI kept between a session's turns, wherever it runs (LiveCli here, or on a worker). */
export interface LiveProcess {
  readonly key: string;
  readonly isAlive: boolean;
  readonly busy: boolean;
  /** The CLI session it continues. */
  readonly sessionId: string | undefined;
  readonly lastUsed: number;
  /** Where it runs, when not in this process: its worker's name. */
  readonly where?: string;
  /** Whether it names the messages it is sent back (undefined until its output shows it): only then is it steered. */
  readonly namesMessages?: boolean | undefined;
  /** The agent's own slash commands, as it listed them (an ACP agent's); none where it lists none. */
  readonly agentCommands?: readonly AgentCommand[];
  startTurn(prompt: string, handlers: TurnHandlers, options?: LiveTurnOptions): RunningTurn;
  close(): Promise<void>;
}

/**
 * The session's owner moves it to another CLI (the `adapter` it gives) when a quota or rate
 * limit stops a turn, and back once that limit has reset: each returns the prompt the turn
 * runs with there (a brief of the work so far, then the message) and the session it resumes.
 */
export interface SessionHandover {
  /** Before a turn: the session goes back to a CLI whose limit has reset, or stays. */
  before?(prompt: string): Promise<Reroute | undefined>;
  /** A turn failed for its CLI's limit: it goes on in another CLI, or ends so. */
  afterLimit(outcome: TurnOutcome, prompt: string): Promise<Reroute | undefined>;
  /** The CLI no longer knows the session (ACP's `session/load` refused): the prompt a fresh one starts with, briefed on the work so far; undefined: no work to tell. */
  lostSession?(prompt: string): string | undefined;
}

export interface Reroute {
  prompt: string;
  /** The session it continues in the CLI it moves to; none: a fresh one. */
  resumeId: string | undefined;
}
