import type { RunEnding } from '../subagents/execution.ts';

/** How a worker says a run's CLI may have run but its end is unknown. */
export const INTERRUPTED = 'interrupted: ';

/** BullMQ's reason for a job whose worker stopped renewing its lock more often than allowed. */
const STALLED = /stalled more than allowable limit/i;

/** A run stopped before any worker started it. */
export function stoppedEnding(reason: string): RunEnding {
  return { outcome: { status: 'stopped', text: '', error: reason, exit: { type: 'exit', code: null, signal: null }, durationMs: 0 }, steps: 0 };
}

/** A failed job, as the run's ending: interrupted when its worker died under it, failed otherwise. */
export function endingOfFailure(reason: string | undefined): RunEnding {
  if (!reason) return { failed: 'its worker failed without saying why' };
  if (reason.startsWith(INTERRUPTED)) return { interrupted: reason };
  if (STALLED.test(reason)) return { interrupted: 'interrupted: the worker running it stopped (its job stalled)' };
  return { failed: reason };
}
