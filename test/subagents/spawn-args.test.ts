import { describe, expect, it } from 'vitest';
import { parseSpawnArgs, SpawnArgsError } from '../../src/work/subagents/spawn-args.ts';

describe('/spawn arguments', () => {
  it.each([
    ['"find the bug"', { task: 'find the bug' }],
    ['find the bug in parser.ts', { task: 'find the bug in parser.ts' }],
    ['--label Research "read the docs"', { label: 'Research', task: 'read the docs' }],
    [
      '--label "Deep research" --cli codex --model gpt-5.5 --timeout 120 "go"',
      { label: 'Deep research', cli: 'codex', model: 'gpt-5.5', timeoutSeconds: 120, task: 'go' },
    ],
    ['--label=R --timeout=30 task words', { label: 'R', timeoutSeconds: 30, task: 'task words' }],
    ['--agent reviewer “check the diff”', { agent: 'reviewer', task: 'check the diff' }],
    ['"line one\nline two"', { task: 'line one\nline two' }],
    ['first line\n  second line', { task: 'first line\n  second line' }],
    ['"say \\"hi\\" twice"', { task: 'say "hi" twice' }],
    ['-- --not-a-flag is the task', { task: '--not-a-flag is the task' }],
  ])('parses %j', (input, expected) => {
    expect(parseSpawnArgs(input)).toEqual(expected);
  });

  it.each([
    ['', 'The task is empty'],
    ['--label X', 'The task is empty'],
    ['"   "', 'The task is empty'],
    ['"never closed', "The task's quote is never closed"],
    ['--label "open', 'The value of --label has an unclosed quote'],
    ['--colour red task', 'Unknown flag --colour'],
    ['--timeout soon "x"', '--timeout takes a whole number of seconds, got "soon"'],
    ['--timeout 0 "x"', '--timeout takes a whole number of seconds, got "0"'],
    ['--timeout 2147484 "x"', '--timeout is at most 86400 seconds (a day), got 2147484.'],
    ['--cli --model m "x"', '--cli needs a value'],
    ['"task" --label late', 'Unexpected text after the quoted task'],
  ])('refuses %j', (input, message) => {
    expect(() => parseSpawnArgs(input)).toThrow(SpawnArgsError);
    expect(() => parseSpawnArgs(input)).toThrow(message);
  });
});
