import type { Plan } from './plan.ts';

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
