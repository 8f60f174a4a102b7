import type { TurnOutcome } from '../../engine/session/running-turn.ts';
import type { RunEnding } from './execution.ts';
import type { RunStatus, SubagentRunRecord } from './record.ts';

type Ended = Partial<SubagentRunRecord> & { status: RunStatus };

/** How a run's record ends for how executing it ended: the run as it was then (its steps, its worktree), and what its end says. */
export function endingOf(run: SubagentRunRecord, ending: RunEnding): { run: SubagentRunRecord; ended: Ended } {
  if ('failed' in ending) return { run, ended: { status: 'failed', error: ending.failed } };
  const ended = fromOutcome(run, ending.outcome);
  return {
    run: { ...run, steps: ending.steps, ...(ending.worktree ? { worktree: ending.worktree } : {}) },
    ended: ending.stoppedForCost && ended.status === 'stopped' ? stoppedForCost(run, ended, ending.stoppedForCost.usd) : ended,
  };
}

/** A run's end as its record tells it: the status, why, and the turn's stats. */
function fromOutcome(run: SubagentRunRecord, outcome: TurnOutcome): Ended {
  const stats = {
    ...(outcome.result?.usage ? { usage: outcome.result.usage } : {}),
    ...(outcome.result?.costUsd !== undefined ? { costUsd: outcome.result.costUsd } : {}),
    ...(outcome.result?.turns !== undefined ? { turns: outcome.result.turns } : {}),
    ...(outcome.sessionId ? { childSessionId: outcome.sessionId } : {}),
    ...(outcome.text ? { result: outcome.text } : {}),
  };
  switch (outcome.status) {
    case 'completed':
      return { ...stats, status: 'completed' };
    case 'timed_out':
      return { ...stats, status: 'timed_out', error: `timed out after ${run.timeoutSeconds} s` };
    case 'stopped':
      if (run.stoppedBy === 'shutdown') return { ...stats, status: 'interrupted', error: 'interrupted: the bridge was shut down' };
      return { ...stats, status: 'stopped', error: `stopped by ${run.stoppedBy ?? 'the bridge'}` };
    default:
      return { ...stats, status: 'failed', error: outcome.error ?? 'failed' };
  }
}

/** A run its budget stopped: what it cost then, said as the reason. */
function stoppedForCost(run: SubagentRunRecord, ended: Ended, usd: number): Ended {
  const costUsd = Math.max(usd, ended.costUsd ?? 0);
  const budget = run.budget!;
  const whose =
    budget.askedUsd !== undefined
      ? `what its person had left of their daily budget, ${dollars(budget.usd)} (it asked for ${dollars(budget.askedUsd)})`
      : `its budget of ${dollars(budget.usd)}`;
  return { ...ended, costUsd, stoppedForCost: { usd: costUsd }, error: `it had cost ${dollars(costUsd)}, reaching ${whose}` };
}

function dollars(usd: number): string {
  return usd >= 0.01 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}
