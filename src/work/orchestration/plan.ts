import type { SpawnIntent } from '../subagents/spawner.ts';

/** How the steps are ordered: all at once, one after another, or by their dependencies. */
export const STRATEGIES = ['parallel', 'sequential', 'dag'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** One subagent run of an orchestration: what its spawn asks for, as /spawn would. */
export interface PlanStep extends Pick<SpawnIntent, 'cli' | 'model' | 'agent' | 'allow' | 'autoApprove' | 'maxTurns'> {
  id: string;
  /** For people; defaults to the id. */
  name: string;
  prompt: string;
  /** Run in a git worktree of its own, so steps running together don't edit one checkout. */
  worktree: boolean;
  /** Ids of the steps whose results this one needs; filled in for `sequential` by validation. */
  depends_on: string[];
}

export interface Plan {
  strategy: Strategy;
  steps: PlanStep[];
  name?: string;
}

/** More steps than this is almost surely a runaway generator, not a plan. */
export const MAX_STEPS = 50;
export const STEP_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
export const STEP_ID_RULE = 'letters, digits, "_" and "-", starting with a letter, at most 32 characters';

/** A plan its author must fix: the message names the step (or the line) and what is wrong. */
export class PlanError extends Error {
  override name = 'PlanError';
}

/** Without a strategy, any dependency means the author wants a graph; none means all at once. */
export function defaultStrategy(hasDependencies: boolean): Strategy {
  return hasDependencies ? 'dag' : 'parallel';
}
