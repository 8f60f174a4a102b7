import { describe, expect, it } from 'vitest';
import { SendBudget } from '../../src/kernel/concurrency/send-budget.ts';

// The per-chat send budget in isolation: calls are plain async functions that record when they ran.
function recorder() {
  const log: { name: string; at: number }[] = [];
  let release: (() => void) | undefined;
  const call =
    (name: string, hold = false) =>
    () =>
      new Promise<string>((resolve) => {
        log.push({ name, at: Date.now() });
        if (hold) release = () => resolve(name);
        else resolve(name);
      });
  return { log, call, release: () => release?.() };
}

describe('the send budget', () => {
  it('keeps each chat within its window, and other chats are not held up', async () => {
    const budget = new SendBudget({ limits: () => ({ max: 2, windowMs: 300 }) });
    const { log, call } = recorder();
    const start = Date.now();
    await Promise.all([1, 2, 3].map((n) => budget.schedule('-1', 'message', call(`a${n}`))).concat(budget.schedule('-2', 'message', call('b1'))));
    const at = (name: string) => log.find((entry) => entry.name === name)!.at - start;
    expect(at('a3') - at('a1')).toBeGreaterThanOrEqual(300); // the third waited for the window
    expect(at('b1')).toBeLessThan(at('a3')); // while another chat went ahead
  });

  it('sends new messages ahead of edits, and merges edits of one message still waiting', async () => {
    const budget = new SendBudget({ limits: () => ({ max: 10, windowMs: 1000 }) });
    const { log, call, release } = recorder();
    const first = budget.schedule('-1', 'message', call('progress', true)); // holds the lane
    await expect.poll(() => log.length).toBe(1);
    const edits = [1, 2, 3].map((n) => budget.schedule('-1', 'edit', call(`edit ${n}`), '-1:7'));
    const other = budget.schedule('-1', 'edit', call('edit of another message'), '-1:8');
    const answer = budget.schedule('-1', 'message', call('answer'));
    release();
    await Promise.all([first, ...edits, other, answer]);
    expect(log.map((entry) => entry.name)).toEqual(['progress', 'answer', 'edit 3', 'edit of another message']);
    // The three edits of message 7 were one, made once: every caller gets its outcome.
    expect(await Promise.all(edits)).toEqual(['edit 3', 'edit 3', 'edit 3']);
  });

  it('passes a failure to its callers and goes on with the next call', async () => {
    const budget = new SendBudget({ limits: () => ({ max: 1, windowMs: 1000 }) });
    await expect(budget.schedule('5', 'message', () => Promise.reject(new Error('the chat is gone')))).rejects.toThrow('the chat is gone');
    expect(await budget.schedule('5', 'message', () => Promise.resolve('next'))).toBe('next');
  });
});
