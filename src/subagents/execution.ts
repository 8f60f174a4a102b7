import type { TurnOutcome } from '../session/turn.ts';
import type { Worktree } from '../worktrees/index.ts';
import type { SubagentRunRecord } from './record.ts';

/**
 * Where a run executes, as the registry sees it: started with its record, it reports as it
 * goes, can be stopped and have its timeout held, and ends with its CLI's outcome. The
 * registry keeps limits, queues and records; an executor only runs what it is given.
 */
export interface RunExecutor {
  execute(run: SubagentRunRecord, reports: RunReports): RunExecution;
}

/** How executing a run ended: its CLI's outcome, or why it could not start. */
export type RunEnding = { outcome: TurnOutcome; steps: number; worktree?: SubagentRunRecord['worktree'] } | { failed: string };

/** What executing a run tells the registry as it goes. */
export interface RunReports {
  /** The CLI named its own session. */
  onSession(sessionId: string): void;
  /** A tool call started: the audit trail and the step count. */
  onToolCall(name: string, input: unknown): void;
  /** Its worktree was made; resolves once the record says so. */
  onWorktree(worktree: Worktree): Promise<void>;
}

/** One run being executed: its ending, and the handles the registry holds while it goes. */
export interface RunExecution {
  readonly ending: Promise<RunEnding>;
  /** Stops it (before its CLI starts, too); the ending says `stopped`. */
  stop(reason: string): Promise<void>;
  /** Pauses its timeout while it waits on a person; returns the release. */
  holdTimeout(): () => void;
}
