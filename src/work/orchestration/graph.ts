import type { Plan, PlanStep } from './plan.ts';

export function stepById(plan: Plan, id: string): PlanStep {
  const step = plan.steps.find((candidate) => candidate.id === id);
  if (!step) throw new Error(`no step "${id}" in the plan`);
  return step;
}

/** For each step, the steps that depend on it directly, in plan order. */
export function dependentsMap(plan: Plan): Map<string, string[]> {
  const dependents = new Map<string, string[]>(plan.steps.map((step) => [step.id, []]));
  for (const step of plan.steps) {
    for (const dep of step.depends_on) dependents.get(dep)?.push(step.id);
  }
  return dependents;
}

/**
 * The step whose result ends the orchestration's announcement: of the steps nothing depends
 * on, the one with the longest chain of dependencies above it (the last in topological
 * order), the later in plan order on a tie. Expects a validated (acyclic) plan.
 */
export function finalStep(plan: Plan): string {
  const dependents = dependentsMap(plan);
  const depths = new Map<string, number>();
  const depth = (id: string): number => {
    let known = depths.get(id);
    if (known === undefined) {
      known = Math.max(-1, ...stepById(plan, id).depends_on.map(depth)) + 1;
      depths.set(id, known);
    }
    return known;
  };
  let best: { id: string; depth: number } | undefined;
  for (const step of plan.steps) {
    if (dependents.get(step.id)?.length) continue;
    const d = depth(step.id);
    if (!best || d >= best.depth) best = { id: step.id, depth: d };
  }
  if (!best) throw new Error('the plan has no steps');
  return best.id;
}
