import { describe, expect, it } from 'vitest';
import { cascade, isFinished, overallStatus, readySteps } from '../../src/work/orchestration/schedule.ts';
import { finalStep } from '../../src/work/orchestration/graph.ts';
import type { StepStates, StepStatus } from '../../src/work/orchestration/state.ts';
import { validatePlan } from '../../src/work/orchestration/validate.ts';
import type { Plan } from '../../src/work/orchestration/plan.ts';
import { fanOutFanIn, initialStates, plan, step } from './support/plans.ts';

function withStatus(states: StepStates, status: StepStatus, ...ids: string[]): StepStates {
  return { ...states, ...Object.fromEntries(ids.map((id) => [id, { status }])) };
}

describe('fan-out, fan-in: analyze → backend, frontend, docs → integration', () => {
  it('readies each stage once the one above completed', () => {
    let states = initialStates(fanOutFanIn);
    expect(readySteps(fanOutFanIn, states)).toEqual(['analyze']);
    states = withStatus(states, 'running', 'analyze');
    expect(readySteps(fanOutFanIn, states)).toEqual([]);
    states = withStatus(states, 'completed', 'analyze');
    expect(readySteps(fanOutFanIn, states)).toEqual(['backend', 'frontend', 'docs']);
    states = withStatus(states, 'running', 'backend', 'frontend', 'docs');
    states = withStatus(states, 'completed', 'backend', 'docs');
    expect(readySteps(fanOutFanIn, states)).toEqual([]);
    states = withStatus(states, 'completed', 'frontend');
    expect(readySteps(fanOutFanIn, states)).toEqual(['integration']);
    expect(isFinished(fanOutFanIn, states)).toBe(false);
    states = withStatus(states, 'completed', 'integration');
    expect(readySteps(fanOutFanIn, states)).toEqual([]);
    expect(isFinished(fanOutFanIn, states)).toBe(true);
    expect(overallStatus(fanOutFanIn, states)).toBe('completed');
  });

  it('treats a step missing from the states as pending', () => {
    expect(readySteps(fanOutFanIn, {})).toEqual(['analyze']);
    expect(isFinished(fanOutFanIn, {})).toBe(false);
  });

  it('fails the steps below a failure, naming it, and lets the other branches run', () => {
    let states = withStatus(initialStates(fanOutFanIn), 'completed', 'analyze');
    states = withStatus(states, 'running', 'frontend', 'docs');
    states = { ...states, backend: { status: 'failed', error: 'exit code 1' } };
    const after = cascade(fanOutFanIn, states, 'backend');
    expect(after).toEqual({
      analyze: { status: 'completed' },
      backend: { status: 'failed', error: 'exit code 1' },
      frontend: { status: 'running' },
      docs: { status: 'running' },
      integration: { status: 'failed', error: 'dependency "backend" failed' },
    });
    expect(states.integration).toEqual({ status: 'pending' }); // the input is left alone
    expect(readySteps(fanOutFanIn, after)).toEqual([]);
    expect(isFinished(fanOutFanIn, after)).toBe(false); // docs and frontend still run
    const done = withStatus(after, 'completed', 'frontend', 'docs');
    expect(isFinished(fanOutFanIn, done)).toBe(true);
    expect(overallStatus(fanOutFanIn, done)).toBe('failed');
  });

  it('names the root cause, not the direct dependency, two levels down', () => {
    const states = cascade(fanOutFanIn, { analyze: { status: 'failed' } }, 'analyze');
    expect(Object.values(states).map((state) => state.error)).toEqual([undefined, ...Array(4).fill('dependency "analyze" failed')]);
  });

  it('says a stopped dependency was stopped, and keeps the first cause of an earlier cascade', () => {
    let states = withStatus(initialStates(fanOutFanIn), 'completed', 'analyze');
    states = cascade(fanOutFanIn, withStatus(states, 'stopped', 'docs'), 'docs');
    expect(states.integration).toEqual({ status: 'failed', error: 'dependency "docs" was stopped' });
    states = cascade(fanOutFanIn, withStatus(states, 'failed', 'backend'), 'backend');
    expect(states.integration?.error).toBe('dependency "docs" was stopped');
    expect(states.frontend).toEqual({ status: 'pending' });
  });

  it('refuses to cascade from a step that did not fail', () => {
    expect(() => cascade(fanOutFanIn, initialStates(fanOutFanIn), 'analyze')).toThrow('cascade: step "analyze" is pending, not failed or stopped');
  });
});

describe('sequential plans', () => {
  it('run one step at a time, in plan order', () => {
    const sequential = validatePlan(plan('sequential', [step('lint'), step('test'), step('release')]));
    let states = initialStates(sequential);
    const order: string[] = [];
    for (let ready = readySteps(sequential, states); ready.length; ready = readySteps(sequential, states)) {
      expect(ready).toHaveLength(1);
      order.push(...ready);
      states = withStatus(states, 'completed', ...ready);
    }
    expect(order).toEqual(['lint', 'test', 'release']);
  });
});

describe('overallStatus', () => {
  const two = plan('parallel', [step('a'), step('b')]);
  it.each<[StepStatus, StepStatus, string]>([
    ['completed', 'completed', 'completed'],
    ['completed', 'failed', 'failed'],
    ['failed', 'stopped', 'stopped'],
    ['completed', 'skipped', 'stopped'],
  ])('%s and %s: %s', (a, b, expected) => {
    expect(overallStatus(two, { a: { status: a }, b: { status: b } })).toBe(expected);
  });

  it('refuses an unfinished orchestration', () => {
    expect(() => overallStatus(two, { a: { status: 'completed' }, b: { status: 'running' } })).toThrow('overallStatus: the orchestration is not finished');
  });
});

describe('finalStep', () => {
  const cases: [string, Plan, string][] = [
    ['the fan-in step', fanOutFanIn, 'integration'],
    ['the last of parallel steps', plan('parallel', [step('a'), step('b'), step('c')]), 'c'],
    ['the deepest of two ends', plan('dag', [step('a'), step('deep', ['mid']), step('mid', ['a']), step('shallow', ['a'])]), 'deep'],
    ['the later of two equally deep ends', plan('dag', [step('a'), step('x', ['a']), step('y', ['a'])]), 'y'],
    ['an end, even if a step after it in the plan feeds others', plan('dag', [step('a'), step('end', ['b']), step('b', ['a'])]), 'end'],
  ];
  it.each(cases)('is %s', (_, given, expected) => {
    expect(finalStep(given)).toBe(expected);
  });

  it('is the last step of a sequential plan', () => {
    expect(finalStep(validatePlan(plan('sequential', [step('a'), step('b'), step('c')])))).toBe('c');
  });
});
