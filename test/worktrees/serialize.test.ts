import { describe, expect, it } from 'vitest';
import { byRepository } from '../../src/engine/worktrees/repo.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('byRepository', () => {
  it('runs tasks under one key one at a time, in order, past failures', async () => {
    const events: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        events.push(`start ${name}`);
        await tick();
        events.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      byRepository.run('repo', task('a')),
      byRepository.run('repo', task('b', true)),
      byRepository.run('repo', task('c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('runs tasks under different keys side by side', async () => {
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`start ${name}`);
      await tick();
      events.push(`end ${name}`);
    };
    await Promise.all([byRepository.run('one', task('a')), byRepository.run('two', task('b'))]);
    expect(events.slice(0, 2)).toEqual(['start a', 'start b']);
  });
});
