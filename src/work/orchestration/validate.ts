import { findCycle } from './cycle.ts';
import { MAX_STEPS, PlanError, STEP_ID_PATTERN, STEP_ID_RULE, type Plan } from './plan.ts';

/**
 * Refuses a plan that could not run as written, before anything runs; the first problem found
 * is thrown as a PlanError naming the step. Returns the plan normalized: for `sequential`,
 * each step depends on the previous one; elsewhere repeated dependencies are dropped.
 */
export function validatePlan(plan: Plan): Plan {
  const { steps, strategy } = plan;
  if (steps.length === 0) throw new PlanError('the plan has no steps');
  if (steps.length > MAX_STEPS) throw new PlanError(`the plan has ${steps.length} steps; at most ${MAX_STEPS} are allowed`);

  const ids = new Set<string>();
  for (const step of steps) {
    if (!STEP_ID_PATTERN.test(step.id)) throw new PlanError(`step id "${step.id}" is not valid: use ${STEP_ID_RULE}`);
    if (ids.has(step.id)) throw new PlanError(`duplicate step id "${step.id}"`);
    ids.add(step.id);
    if (!step.prompt.trim()) throw new PlanError(`step "${step.id}" has an empty prompt`);
  }

  for (const step of steps) {
    if (step.depends_on.length === 0) continue;
    if (strategy === 'parallel') {
      throw new PlanError(`step "${step.id}" has dependencies, but strategy "parallel" starts every step at once; use strategy "dag"`);
    }
    if (strategy === 'sequential') {
      throw new PlanError(
        `step "${step.id}" has dependencies, but strategy "sequential" already runs each step after the previous one; use strategy "dag" for any other order`,
      );
    }
    for (const dep of step.depends_on) {
      if (dep === step.id) throw new PlanError(`step "${step.id}" depends on itself`);
      if (!ids.has(dep)) throw new PlanError(`step "${step.id}" depends on "${dep}", which is not in the plan`);
    }
  }

  const normalized: Plan = {
    ...plan,
    steps: steps.map((step, index) => ({
      ...step,
      depends_on: strategy === 'sequential' ? steps.slice(Math.max(0, index - 1), index).map((previous) => previous.id) : [...new Set(step.depends_on)],
    })),
  };
  const cycle = findCycle(normalized);
  if (cycle) throw new PlanError(`cycle: ${[...cycle, cycle[0]].join(' → ')}`);
  return normalized;
}
