import type { AgentEvent } from '../../kernel/protocols/events.ts';
import type { TurnOutcome } from '../../engine/session/running-turn.ts';
import type { TraceCarrier } from '../../services/telemetry/trace-context.ts';
import type { Worktree } from '../../engine/worktrees/index.ts';
import type { SubagentRunRecord } from './record.ts';
import type { LiveLaunch, PermissionAnswerer } from '../../engine/session/live-cli.ts';
import type { LiveProcess } from '../../engine/session/session-config.ts';

/**
 * Where runs' CLIs run when not in this process: on workers (RemoteSessions), each run's CLI a
 * session placed on one, known by `key`, told where it is placed, its raw lines reported.
 */
export interface RunPlaces {
  process(
    key: string,
    launch: LiveLaunch,
    answer: PermissionAnswerer,
    tell: (line: string) => void,
    hooks: { placedOn?: (worker: string) => void; lines?: boolean; noun?: string; what?: string; mcpServers?: string[]; trace?: TraceCarrier },
  ): LiveProcess;
  /** The run is over: its session leaves its worker. */
  leave(key: string): Promise<void>;
  unavailable(): string | undefined;
  onAvailable(listener: () => void): void;
  describe(): Promise<string>;
}

/** How one run is executed beyond its record. */
export interface ExecuteOptions {
  /** The bridge's span of the run: the spans of its execution (on a worker too) join its trace. */
  trace?: TraceCarrier;
  /** It was at work when the bridge restarted: where it went on elsewhere (a worker), it is followed, not started again. */
  takingUp?: boolean;
}

/** How executing a run ended: its CLI's outcome, or why it could not start. */
export type RunEnding =
  { outcome: TurnOutcome; steps: number; worktree?: SubagentRunRecord['worktree']; stoppedForCost?: { usd: number } } | { failed: string };

/** What executing a run tells the registry as it goes. */
export interface RunReports {
  /** One line of the CLI's stdout, as it printed it: the run's log. */
  onLine(raw: string): void;
  /** The CLI named its own session. */
  onSession(sessionId: string): void;
  /** Every event of its CLI, as decoded, where it runs (its trace's spans are made of them). */
  onEvent?(event: AgentEvent): void;
  /** A tool call started: the audit trail and the step count. */
  onToolCall(name: string, input: unknown): void;
  /** Its worktree was made; resolves once the record says so. */
  onWorktree(worktree: Worktree): Promise<void>;
  /** A worker took it: named for /subagents info. */
  onWorker(worker: string): void;
  /** Its sandbox refused a host nobody allowed (BRIDGE_SANDBOX_ALLOW, its chat's /net). */
  onBlocked?(host: string, why: string): void;
  /** A limit stopped its CLI and it goes on in `cli`, in a session that CLI names next (onSession). */
  onHandover?(cli: string): void;
}

/** One run being executed: its ending, and the handles the registry holds while it goes. */
export interface RunExecution {
  readonly ending: Promise<RunEnding>;
  /** Stops it (before its CLI starts, too); the ending says `stopped`. */
  stop(reason: string): Promise<void>;
  /** Pauses its timeout while it waits on a person; returns the release. */
  holdTimeout(): () => void;
  /**
   * A message for the run, named `id`: into its running CLI where the CLI reads messages while
   * it works, otherwise its next turn, in the same CLI session, right after the current one.
   * Undefined when it has ended or is stopping.
   */
  send(text: string, id: string): MessageDelivery | undefined;
}

/** Where a message for a running run went. */
export type MessageDelivery =
  /** Into the running CLI, which reads it while it works (its `input` events name it). */
  | { via: 'live' }
  /** Its next turn: `waiting` messages (this one included) make that turn. */
  | { via: 'next_turn'; waiting: number }
  /** To the worker running it, which delivers it one way or the other. */
  | { via: 'worker' };
