import assert from 'node:assert/strict';
import { describe, expect, it } from 'vitest';
import { cascade, isFinished, overallStatus, readySteps } from '../../src/work/orchestration/schedule.ts';
import { finalStep } from '../../src/work/orchestration/graph.ts';
import type { StepStates } from '../../src/work/orchestration/state.ts';
import { initialStates } from './support/plans.ts';
import { parsePlan } from '../../src/work/orchestration/parse.ts';
import { PlanError, type Plan } from '../../src/work/orchestration/plan.ts';
import { validatePlan } from '../../src/work/orchestration/validate.ts';
import { seeded, type Random } from '../format/support/generate.ts';
import { int, randomAcyclicPlan, toLineForm } from './support/random-plan.ts';

// Plain asserts inside the loops: vitest's expect costs more than the code it checks.
const PLANS = 100;

/**
 * Runs `plan` as the lead's scheduler would: start some ready steps, finish one running step
 * (failing it with probability `failRate`, then cascading), repeat. Checks, at every start,
 * that the step starts once and only after its dependencies completed.
 */
function execute(r: Random, plan: Plan, failRate: number): { states: StepStates; started: string[] } {
  let states = initialStates(plan);
  const started: string[] = [];
  const running: string[] = [];
  for (let guard = 0; !isFinished(plan, states); guard++) {
    assert.ok(guard < 10 * plan.steps.length, 'the run does not progress');
    const ready = readySteps(plan, states);
    const starting = ready.filter((_, i) => i === 0 || r() < 0.5);
    for (const id of running.length === 0 ? starting : starting.filter(() => r() < 0.5)) {
      assert.ok(!started.includes(id), `${id} started twice`);
      const step = plan.steps.find((s) => s.id === id)!;
      for (const dep of step.depends_on) assert.equal(states[dep]?.status, 'completed', `${id} started before ${dep} completed`);
      started.push(id);
      running.push(id);
      states = { ...states, [id]: { status: 'running' } };
    }
    const [id] = running.splice(int(r, 0, running.length - 1), 1);
    assert.ok(id !== undefined, 'nothing is running, yet the run is not finished');
    if (r() < failRate) states = cascade(plan, { ...states, [id]: { status: 'failed', error: 'boom' } }, id);
    else states = { ...states, [id]: { status: 'completed', summary: `done ${id}` } };
  }
  return { states, started };
}

describe('random acyclic plans', () => {
  it('validate, and read back the same from the line form and from JSON', () => {
    const r = seeded(20250101);
    for (let i = 0; i < PLANS; i++) {
      const plan = randomAcyclicPlan(r);
      assert.deepEqual(validatePlan(plan), plan);
      assert.deepEqual(parsePlan(toLineForm(plan)), plan);
      assert.deepEqual(parsePlan(JSON.stringify(plan)), plan);
    }
  });

  it('run every step exactly once, each after its dependencies', () => {
    const r = seeded(42);
    for (let i = 0; i < PLANS; i++) {
      const plan = randomAcyclicPlan(r);
      const { states, started } = execute(r, plan, 0);
      assert.deepEqual([...started].sort(), plan.steps.map((s) => s.id).sort());
      assert.equal(overallStatus(plan, states), 'completed');
      const final = finalStep(plan);
      assert.ok(!plan.steps.some((s) => s.depends_on.includes(final)), `final step ${final} has dependents`);
    }
  });

  it('with failures: never run a step below a failure, and name a failed ancestor for each step that did not run', () => {
    const r = seeded(7);
    for (let i = 0; i < PLANS; i++) {
      const plan = randomAcyclicPlan(r);
      const { states, started } = execute(r, plan, 0.15);
      const byId = new Map(plan.steps.map((s) => [s.id, s]));
      const ancestors = (id: string): string[] => byId.get(id)!.depends_on.flatMap((dep) => [dep, ...ancestors(dep)]);
      for (const step of plan.steps) {
        const state = states[step.id]!;
        if (started.includes(step.id)) {
          assert.ok(state.status === 'completed' || state.status === 'failed');
          continue;
        }
        assert.equal(state.status, 'failed');
        const cause = /^dependency "(.+)" failed$/.exec(state.error ?? '')?.[1];
        assert.ok(cause && ancestors(step.id).includes(cause), `${step.id}: ${state.error}`);
        assert.equal(states[cause]?.error, 'boom');
      }
      const anyFailed = Object.values(states).some((state) => state.status === 'failed');
      assert.equal(overallStatus(plan, states), anyFailed ? 'failed' : 'completed');
    }
  });

  it('with one dependency turned back on itself: refused, naming a real cycle', () => {
    const r = seeded(99);
    let refused = 0;
    for (let i = 0; i < PLANS; i++) {
      const plan = randomAcyclicPlan(r);
      const edge = plan.steps.flatMap((s) => s.depends_on.map((dep) => [s.id, dep] as const))[0];
      if (!edge) continue;
      // `child` depends on `parent`; making `parent` depend on `child` closes a cycle.
      const [child, parent] = edge;
      const cyclic: Plan = { ...plan, steps: plan.steps.map((s) => (s.id === parent ? { ...s, depends_on: [...s.depends_on, child] } : s)) };
      let message = '';
      try {
        validatePlan(cyclic);
      } catch (error) {
        assert.ok(error instanceof PlanError);
        message = error.message;
      }
      const cycle = /^cycle: (.+)$/.exec(message)?.[1]?.split(' → ') ?? [];
      assert.ok(cycle.length >= 3, message);
      assert.equal(cycle[0], cycle.at(-1));
      for (let k = 1; k < cycle.length; k++) {
        assert.ok(cyclic.steps.find((s) => s.id === cycle[k])?.depends_on.includes(cycle[k - 1]!), message);
      }
      refused++;
    }
    expect(refused).toBeGreaterThan(PLANS / 2);
  });
});
