import type { RunEnding } from '../subagents/execution.ts';

/** How a worker says a run's CLI may have run but its end is unknown. */
export const INTERRUPTED = 'interrupted: ';

/** BullMQ's reason for a job whose worker stopped renewing its lock more often than allowed. */
const STALLED = /stalled more than allowable limit/i;

/** A run stopped before any worker started it. */
export function stoppedEnding(reason: string): RunEnding {
  return { outcome: { status: 'stopped', text: '', error: reason, exit: { type: 'exit', code: null, signal: null }, durationMs: 0 }, steps: 0 };
}

/**
 * A failed job, as the run's ending, when BullMQ failed it (its worker died under it): the
 * only failure not reported by a worker, whose endings are signed. None for any other.
 */
export function endingOfStall(reason: string | undefined): RunEnding | undefined {
  if (reason && STALLED.test(reason)) return { interrupted: `${INTERRUPTED}the worker running it stopped (its job stalled)` };
  return undefined;
}

/** A run's end, for the worker's log. */
export function describeEnding(ending: RunEnding | undefined): string {
  if (!ending) return 'the worker failed to run it';
  if ('failed' in ending) return `failed: ${ending.failed}`;
  if ('interrupted' in ending) return ending.interrupted;
  const { status, error } = ending.outcome;
  return error ? `${status}: ${error}` : status;
}
