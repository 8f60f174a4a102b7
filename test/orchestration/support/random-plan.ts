import type { Plan, PlanStep } from '../../../src/work/orchestration/plan.ts';
import type { Random } from '../../format/support/generate.ts';

export const int = (r: Random, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

function shuffle<T>(r: Random, items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = int(r, 0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * An acyclic plan of 1 to 50 steps: each step may depend on steps created before it, and the
 * plan lists them in a shuffled order, so plan order is not a topological order.
 */
export function randomAcyclicPlan(r: Random): Plan {
  const count = int(r, 1, 50);
  const steps: PlanStep[] = [];
  for (let i = 0; i < count; i++) {
    const id = `s${i}_${int(r, 0, 9)}`;
    const depends_on = steps.filter(() => r() < 2 / (steps.length + 1)).map((earlier) => earlier.id);
    const step: PlanStep = { id, name: r() < 0.2 ? `Step ${i} of ${count}` : id, prompt: `task ${i}: look at [x] and y.`, worktree: r() < 0.2, depends_on };
    if (r() < 0.3) step.cli = 'codex';
    if (r() < 0.3) step.model = 'gpt-5.5';
    steps.push(step);
  }
  const hasDependencies = steps.some((step) => step.depends_on.length > 0);
  return { strategy: hasDependencies ? 'dag' : 'parallel', steps: shuffle(r, steps) };
}

/** The same plan in the line form, without a strategy header (the default must pick it). */
export function toLineForm(plan: Plan): string {
  return plan.steps
    .map((step) => {
      const options = [
        step.cli && `cli=${step.cli}`,
        step.model && `model=${step.model}`,
        step.name !== step.id && `name="${step.name}"`,
        step.worktree && 'worktree',
      ].filter(Boolean);
      const deps = step.depends_on.length ? ` <- ${step.depends_on.join(', ')}` : '';
      return `${step.id}${deps}: ${step.prompt}${options.length ? ` [${options.join(' ')}]` : ''}`;
    })
    .join('\n');
}
