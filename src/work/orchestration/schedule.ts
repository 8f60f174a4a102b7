import { dependentsMap } from './graph.ts';
import type { Plan } from './plan.ts';
import { statusOf, type StepStates, type StepStatus } from './state.ts';

const UNFINISHED: readonly StepStatus[] = ['pending', 'running'];

/** Pending steps whose dependencies have all completed, in plan order: the ones to start now. */
export function readySteps(plan: Plan, states: StepStates): string[] {
  return plan.steps
    .filter((step) => statusOf(states, step.id) === 'pending' && step.depends_on.every((dep) => statusOf(states, dep) === 'completed'))
    .map((step) => step.id);
}

/**
 * After `failedId` failed or was stopped (already recorded in `states`): a copy of `states` in
 * which every pending step below it, directly or transitively, has failed. The error names
 * `failedId`, the root cause, rather than the direct dependency: the reader of
 * `dependency "backend" failed` on a step two levels down needn't walk the chain to find why.
 * A step already failed by an earlier cascade keeps its first cause.
 */
export function cascade(plan: Plan, states: StepStates, failedId: string): StepStates {
  const cause = states[failedId]?.status;
  if (cause !== 'failed' && cause !== 'stopped') throw new Error(`cascade: step "${failedId}" is ${cause ?? 'not in the states'}, not failed or stopped`);
  const error = cause === 'failed' ? `dependency "${failedId}" failed` : `dependency "${failedId}" was stopped`;
  const dependents = dependentsMap(plan);
  const next: StepStates = { ...states };
  const seen = new Set<string>([failedId]);
  const queue = [failedId];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const dependent of dependents.get(id) ?? []) {
      if (seen.has(dependent)) continue;
      seen.add(dependent);
      queue.push(dependent);
      if (statusOf(next, dependent) === 'pending') next[dependent] = { status: 'failed', error };
    }
  }
  return next;
}

/** Nothing pending or running. Holds only if every failure was followed by `cascade`. */
export function isFinished(plan: Plan, states: StepStates): boolean {
  return plan.steps.every((step) => !UNFINISHED.includes(statusOf(states, step.id)));
}

/**
 * How a finished orchestration ended. Someone stopping a step or skipping steps is what ended
 * it, so `stopped` wins over `failed`; `completed` means every step completed.
 */
export function overallStatus(plan: Plan, states: StepStates): 'completed' | 'failed' | 'stopped' {
  if (!isFinished(plan, states)) throw new Error('overallStatus: the orchestration is not finished');
  const statuses = plan.steps.map((step) => statusOf(states, step.id));
  if (statuses.some((status) => status === 'stopped' || status === 'skipped')) return 'stopped';
  if (statuses.includes('failed')) return 'failed';
  return 'completed';
}
