import { describe, expect, it } from 'vitest';
import { parseLinePlan } from '../../src/work/orchestration/line-plan.ts';
import { parsePlan } from '../../src/work/orchestration/parse.ts';
import { planError, step } from './support/plans.ts';

describe('the line form', () => {
  it('parses the example plan', () => {
    const text = [
      'strategy: dag',
      'analyze: Read the repo and list the modules',
      'backend <- analyze: Implement the API [cli=codex model=gpt-5.5]',
      'frontend <- analyze: Build the UI [worktree]',
      'docs <- analyze: Write the docs',
      'integration <- backend, frontend, docs: Wire it all together',
    ].join('\n');
    expect(parsePlan(text)).toEqual({
      strategy: 'dag',
      steps: [
        step('analyze', [], { prompt: 'Read the repo and list the modules' }),
        step('backend', ['analyze'], { prompt: 'Implement the API', cli: 'codex', model: 'gpt-5.5' }),
        step('frontend', ['analyze'], { prompt: 'Build the UI', worktree: true }),
        step('docs', ['analyze'], { prompt: 'Write the docs' }),
        step('integration', ['backend', 'frontend', 'docs'], { prompt: 'Wire it all together' }),
      ],
    });
  });

  it('reads comments, a plan name, continuation lines and every option', () => {
    const text = [
      '# Release 2.0',
      'Name: Release 2.0',
      '',
      'review: [agent=reviewer name="Code review" model=opus]',
      '    Review the diff:',
      '',
      '      - correctness',
      '    # not a comment: indented lines are prompt',
      '# a comment between two steps',
      'notes<-review:Write notes [name=“Release notes”, cli=droid]',
      '\tin Markdown',
      '',
    ].join('\r\n');
    expect(parseLinePlan(text)).toEqual({
      strategy: 'dag',
      name: 'Release 2.0',
      steps: [
        step('review', [], {
          name: 'Code review',
          agent: 'reviewer',
          model: 'opus',
          prompt: 'Review the diff:\n\n  - correctness\n# not a comment: indented lines are prompt',
        }),
        step('notes', ['review'], { name: 'Release notes', cli: 'droid', prompt: 'Write notes\nin Markdown' }),
      ],
    });
  });

  it('defaults to parallel without "<-", and reads any strategy in any case', () => {
    expect(parseLinePlan('a: one\nb: two').strategy).toBe('parallel');
    expect(parseLinePlan('a: one\nb <- a: two').strategy).toBe('dag');
    expect(parseLinePlan('STRATEGY: Sequential\na: one').strategy).toBe('sequential');
  });

  it('keeps brackets inside a prompt and on continuation lines', () => {
    expect(parseLinePlan('a: fix [the] bug.\n  see [1]').steps[0]?.prompt).toBe('fix [the] bug.\nsee [1]');
  });

  it('accepts dependencies separated by spaces', () => {
    expect(parseLinePlan('a: x\nb: y\nc <- a b: z').steps[2]?.depends_on).toEqual(['a', 'b']);
  });

  it.each([
    ['a: x\nb y: z', 'line 2: expected a step ("id: prompt" or "id <- dependency, …: prompt"), got "b y: z"'],
    ['Read the repo', 'line 1: expected a step ("id: prompt" or "id <- dependency, …: prompt"), got "Read the repo"'],
    ['1st: x', 'line 1: "1st" is not a valid step id: use letters, digits, "_" and "-", starting with a letter, at most 32 characters'],
    ['a: x\nb <- a, c!: y', 'line 2: "c!" is not a valid step id: use letters, digits, "_" and "-", starting with a letter, at most 32 characters'],
    ['b <- : y', 'line 1: expected step ids after "<-"'],
    ['  a: x', "line 1: indented line with no step above it (indented lines continue the previous step's prompt)"],
    ['a: x\nstrategy: dag', 'line 2: "strategy:" must come before the first step'],
    ['strategy: dag\nstrategy: dag', 'line 2: "strategy:" is given twice'],
    ['name:', 'line 1: "name:" needs a value'],
    ['strategy: tree', 'line 1: unknown strategy "tree": expected parallel, sequential or dag'],
    ['\n\na: [cli=codex]', 'line 3: step "a" has no prompt'],
    ['a: x [urgent]', 'line 1: unknown option "urgent": expected cli=…, model=…, agent=…, name="…" or worktree, separated by spaces'],
    ['a: x [cli=]', 'line 1: option "cli" needs a value, as in cli=…'],
    ['a: x [name=""]', 'line 1: option "name" needs a value, as in name="Display name"'],
    ['a: x [worktree=yes]', 'line 1: option "worktree" takes no value'],
    ['a: x [model=a model=b]', 'line 1: option "model" is given twice'],
    [
      'a: x [name="Open quote]',
      'line 1: cannot read the options [name="Open quote]: expected cli=…, model=…, agent=…, name="…" or worktree, separated by spaces',
    ],
  ])('refuses %j', (text, message) => {
    expect(planError(() => parseLinePlan(text))).toBe(message);
  });
});
