import { PlanError, type Plan, type PlanStep, type Strategy } from '../../../src/work/orchestration/plan.ts';
import type { StepStates } from '../../../src/work/orchestration/state.ts';

/** A step as validatePlan returns it: name = id, no worktree, unless `extra` says otherwise. */
export function step(id: string, depends_on: string[] = [], extra: Partial<PlanStep> = {}): PlanStep {
  return { id, name: id, prompt: `do ${id}`, worktree: false, depends_on, ...extra };
}

/** Every step of the plan pending, as an orchestration starts. */
export function initialStates(plan: Plan): StepStates {
  return Object.fromEntries(plan.steps.map((step) => [step.id, { status: 'pending' }]));
}

export function plan(strategy: Strategy, steps: PlanStep[]): Plan {
  return { strategy, steps };
}

/** analyze → backend, frontend, docs → integration. */
export const fanOutFanIn: Plan = plan('dag', [
  step('analyze'),
  step('backend', ['analyze']),
  step('frontend', ['analyze']),
  step('docs', ['analyze']),
  step('integration', ['backend', 'frontend', 'docs']),
]);

/** The PlanError `run` throws, so a test can compare its exact message. */
export function planError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof PlanError) return error.message;
    throw error;
  }
  throw new Error('expected a PlanError, but nothing was thrown');
}
