import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/work/orchestration/parse.ts';
import { validatePlan } from '../../src/work/orchestration/validate.ts';
import { plan, planError, step } from './support/plans.ts';

describe('validatePlan', () => {
  it('implies each step of a sequential plan on the previous one', () => {
    expect(validatePlan(plan('sequential', [step('a'), step('b'), step('c')]))).toEqual(plan('sequential', [step('a'), step('b', ['a']), step('c', ['b'])]));
    expect(parsePlan('strategy: sequential\nlint: x\ntest: y').steps.map((s) => s.depends_on)).toEqual([[], ['lint']]);
  });

  it('drops a repeated dependency', () => {
    expect(validatePlan(plan('dag', [step('a'), step('b', ['a', 'a'])])).steps[1]?.depends_on).toEqual(['a']);
  });

  it('does not change the plan it was given', () => {
    const given = plan('sequential', [step('a'), step('b')]);
    validatePlan(given);
    expect(given.steps[1]?.depends_on).toEqual([]);
  });

  it.each([
    ['an empty plan', plan('parallel', []), 'the plan has no steps'],
    [
      '51 steps',
      plan(
        'parallel',
        Array.from({ length: 51 }, (_, i) => step(`s${i}`)),
      ),
      'the plan has 51 steps; at most 50 are allowed',
    ],
    [
      'a bad id',
      plan('parallel', [step('no spaces')]),
      'step id "no spaces" is not valid: use letters, digits, "_" and "-", starting with a letter, at most 32 characters',
    ],
    [
      'a 33-character id',
      plan('parallel', [step(`a${'b'.repeat(32)}`)]),
      `step id "a${'b'.repeat(32)}" is not valid: use letters, digits, "_" and "-", starting with a letter, at most 32 characters`,
    ],
    ['a duplicate id', plan('dag', [step('a'), step('b'), step('a')]), 'duplicate step id "a"'],
    ['an empty prompt', plan('dag', [step('a', [], { prompt: ' ' })]), 'step "a" has an empty prompt'],
    ['an unknown dependency', plan('dag', [step('analyze'), step('backend', ['analyse'])]), 'step "backend" depends on "analyse", which is not in the plan'],
    ['a self-dependency', plan('dag', [step('a', ['a'])]), 'step "a" depends on itself'],
    [
      'dependencies in a parallel plan',
      plan('parallel', [step('a'), step('b', ['a'])]),
      'step "b" has dependencies, but strategy "parallel" starts every step at once; use strategy "dag"',
    ],
    [
      'explicit dependencies in a sequential plan',
      plan('sequential', [step('a'), step('b', ['a'])]),
      'step "b" has dependencies, but strategy "sequential" already runs each step after the previous one; use strategy "dag" for any other order',
    ],
  ])('refuses %s', (_, given, message) => {
    expect(planError(() => validatePlan(given))).toBe(message);
  });

  it('accepts exactly 50 steps and 32-character ids', () => {
    expect(
      validatePlan(
        plan(
          'parallel',
          Array.from({ length: 50 }, (_, i) => step(`s${i}`)),
        ),
      ).steps,
    ).toHaveLength(50);
    expect(validatePlan(plan('parallel', [step(`a${'b'.repeat(31)}`)])).steps).toHaveLength(1);
  });

  it('refuses "<-" under an explicit parallel strategy in the line form', () => {
    expect(planError(() => parsePlan('strategy: parallel\na: x\nb <- a: y'))).toBe(
      'step "b" has dependencies, but strategy "parallel" starts every step at once; use strategy "dag"',
    );
  });
});

describe('cycles', () => {
  const cycleOf = (...steps: ReturnType<typeof step>[]) => planError(() => validatePlan(plan('dag', steps)));

  it('names a 2-cycle in the order results flow', () => {
    expect(cycleOf(step('a', ['b']), step('b', ['a']))).toBe('cycle: a → b → a');
  });

  it('names every step of a long cycle, starting from the earliest in the plan', () => {
    // e feeds d feeds c feeds b feeds a feeds e.
    expect(cycleOf(step('b', ['c']), step('a', ['b']), step('c', ['d']), step('d', ['e']), step('e', ['a']))).toBe('cycle: b → a → e → d → c → b');
  });

  it('finds a cycle only a later step leads to, and leaves out the steps outside it', () => {
    expect(cycleOf(step('root'), step('ok', ['root']), step('entry', ['x']), step('x', ['y']), step('y', ['z']), step('z', ['x']))).toBe(
      'cycle: x → z → y → x',
    );
  });

  it('finds a cycle below an acyclic diamond', () => {
    expect(cycleOf(step('top'), step('l', ['top', 'q']), step('r', ['top']), step('p', ['l', 'r']), step('q', ['p']))).toBe('cycle: l → p → q → l');
  });

  it('accepts a diamond', () => {
    expect(() => validatePlan(plan('dag', [step('a'), step('b', ['a']), step('c', ['a']), step('d', ['b', 'c'])]))).not.toThrow();
  });
});
