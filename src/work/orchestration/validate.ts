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
    if (strategy === 'parallel')
      throw new PlanError(`step "${step.id}" has dependencies, but strategy "parallel" starts every step at once; use strategy "dag"`);
    if (strategy === 'sequential')
      throw new PlanError(
        `step "${step.id}" has dependencies, but strategy "sequential" already runs each step after the previous one; use strategy "dag" for any other order`,
      );
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

/**
 * One cycle of the dependency graph, or undefined. The steps come in the order results flow
 * (each feeds the next, the last feeds the first), starting from the cycle's earliest step in
 * the plan, so the message is the same however the search went. Every dependency must name a
 * step of the plan. Recursive: fine for the at most MAX_STEPS steps of a plan.
 */
export function findCycle(plan: Plan): string[] | undefined {
  const dependencies = new Map(plan.steps.map((step) => [step.id, step.depends_on]));
  const marks = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];

  const visit = (id: string): string[] | undefined => {
    const mark = marks.get(id);
    if (mark === 'done') return undefined;
    // Back on the current path: the path from there on depends on itself.
    if (mark === 'visiting') return path.slice(path.indexOf(id));
    marks.set(id, 'visiting');
    path.push(id);
    for (const dep of dependencies.get(id) ?? []) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    marks.set(id, 'done');
    return undefined;
  };

  // Starting from every step finds cycles that only later steps lead to.
  for (const step of plan.steps) {
    const cycle = visit(step.id);
    if (cycle) return inFlowOrder(cycle, plan);
  }
  return undefined;
}

/** `path` runs along depends_on (a needs b needs c); results flow the other way. */
function inFlowOrder(path: string[], plan: Plan): string[] {
  const flow = [...path].reverse();
  const order = new Map(plan.steps.map((step, index) => [step.id, index]));
  let start = 0;
  flow.forEach((id, i) => {
    if ((order.get(id) ?? 0) < (order.get(flow[start]!) ?? 0)) start = i;
  });
  return [...flow.slice(start), ...flow.slice(0, start)];
}
