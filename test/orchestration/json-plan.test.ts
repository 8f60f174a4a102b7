import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/work/orchestration/parse.ts';
import { planError, step } from './support/plans.ts';

describe('the JSON form', () => {
  const json = {
    strategy: 'dag',
    name: 'Release',
    steps: [
      { id: 'analyze', prompt: ' Read the repo ' },
      { id: 'backend', name: 'API', prompt: 'Implement the API', cli: 'codex', model: 'gpt-5.5', depends_on: 'analyze' },
      { id: 'frontend', prompt: 'Build the UI', agent: 'ui', worktree: true, depends_on: ['analyze'] },
      { id: 'integration', prompt: 'Wire it', depends_on: 'backend, frontend' },
    ],
  };
  const expected = {
    strategy: 'dag',
    name: 'Release',
    steps: [
      step('analyze', [], { prompt: 'Read the repo' }),
      step('backend', ['analyze'], { name: 'API', prompt: 'Implement the API', cli: 'codex', model: 'gpt-5.5' }),
      step('frontend', ['analyze'], { prompt: 'Build the UI', agent: 'ui', worktree: true }),
      step('integration', ['backend', 'frontend'], { prompt: 'Wire it' }),
    ],
  };

  it('parses tool arguments, with depends_on missing, a string, a list or a comma list', () => {
    expect(parsePlan(json)).toEqual(expected);
  });

  it('parses the same plan sent as text', () => {
    expect(parsePlan(`\n  ${JSON.stringify(json, null, 2)}`)).toEqual(expected);
  });

  it('defaults the strategy from the dependencies', () => {
    expect(
      parsePlan({
        steps: [
          { id: 'a', prompt: 'x' },
          { id: 'b', prompt: 'y' },
        ],
      }).strategy,
    ).toBe('parallel');
    expect(
      parsePlan({
        steps: [
          { id: 'a', prompt: 'x' },
          { id: 'b', prompt: 'y', depends_on: 'a' },
        ],
      }).strategy,
    ).toBe('dag');
  });

  it('names the step in each field error', () => {
    const input = {
      strategy: 'tree',
      steps: [{ id: 'backend', prompt: '  ' }, { id: 'x y', prompt: 'p', dependsOn: 'backend' }, 'docs', { id: 'docs', prompt: 'p', depends_on: 4 }],
    };
    expect(planError(() => parsePlan(input))).toBe(
      [
        'field "strategy": expected "parallel", "sequential" or "dag"',
        'step "backend": field "prompt": expected a non-empty string',
        'step "x y": field "id": expected a step id: letters, digits, "_" and "-", starting with a letter, at most 32 characters',
        'step "x y": field "(top level)": Unrecognized key: "dependsOn"',
        'step #3: field "(top level)": expected object, received string',
        'step "docs": field "depends_on": expected a step id or a list of step ids',
      ].join('; '),
    );
  });

  it.each([
    [{ strategy: 'dag' }, 'field "steps": missing (expected array)'],
    [
      { steps: [{ id: 'a', prompt: 'p', depends_on: ['b!'] }] },
      'step "a": field "depends_on.0": expected a step id: letters, digits, "_" and "-", starting with a letter, at most 32 characters',
    ],
    [{ steps: [{ prompt: 'p' }] }, 'step #1: field "id": missing (expected string)'],
    [{ steps: [{ id: 'a' }] }, 'step "a": field "prompt": missing (expected string)'],
    [[], 'field "(top level)": expected object, received array'],
  ])('refuses %j', (input, message) => {
    expect(planError(() => parsePlan(input))).toBe(message);
  });

  it('refuses text that is not JSON', () => {
    expect(planError(() => parsePlan('{"steps": ['))).toMatch(/^not valid JSON: /);
  });
});
