import { afterEach, describe, expect, it, vi } from 'vitest';
import { CachedMembers } from '../../src/work/access/member-cache.ts';
import type { ChatMembers } from '../../src/kernel/ports/chat-members.ts';
import { chatRef } from '../../src/kernel/ports/chat.ts';

/** A transport's answers, counted, each held until `settle` (or at once). */
function counted(answer: (chat: string, person: string) => boolean | Error, held = false) {
  const asked: string[] = [];
  const waiting: (() => void)[] = [];
  const source: ChatMembers = {
    isMember(chat, person) {
      asked.push(`${chat.chat}/${person}`);
      const result = answer(chat.chat, person);
      const settle = (resolve: (member: boolean) => void, reject: (error: Error) => void) => (result instanceof Error ? reject(result) : resolve(result));
      return new Promise((resolve, reject) => (held ? waiting.push(() => settle(resolve, reject)) : settle(resolve, reject)));
    },
  };
  return { source, asked, settleAll: () => waiting.splice(0).forEach((go) => go()) };
}

const group = (id: number, thread?: number) => chatRef('telegram', id, thread);

describe('the members cache', () => {
  afterEach(() => vi.useRealTimers());

  it('asks once for look-ups under way at the same time, and once per chat and person while the answer holds', async () => {
    const { source, asked, settleAll } = counted((_chat, person) => person === 'telegram:1', true);
    const cache = new CachedMembers(source);
    const many = Array.from({ length: 50 }, () => cache.isMember(group(-5), 'telegram:1'));
    const other = cache.isMember(group(-5), 'telegram:2');
    settleAll();
    expect(await Promise.all(many)).toEqual(Array(50).fill(true));
    expect(await other).toBe(false);
    // A thread's people are its chat's.
    expect(await cache.isMember(group(-5, 7), 'telegram:1')).toBe(true);
    expect(asked).toEqual(['-5/telegram:1', '-5/telegram:2']);
  });

  it('keeps a member longer than a stranger, and a failure only briefly', async () => {
    vi.useFakeTimers({ now: 0, toFake: ['Date'] });
    const at = (now: number) => vi.setSystemTime(now);
    let fails = true;
    const { source, asked } = counted((chat, person) => (chat === '-6' && fails ? new Error('Bot API unreachable') : person === 'telegram:1'));
    const cache = new CachedMembers(source, { memberMs: 300_000, strangerMs: 30_000, failedMs: 10_000 });
    await cache.isMember(group(-5), 'telegram:1');
    await cache.isMember(group(-5), 'telegram:2');
    await expect(cache.isMember(group(-6), 'telegram:1')).rejects.toThrow('unreachable');
    at(9_999);
    await expect(cache.isMember(group(-6), 'telegram:1')).rejects.toThrow('unreachable');
    expect(asked).toHaveLength(3);
    fails = false;
    at(10_000);
    expect(await cache.isMember(group(-6), 'telegram:1')).toBe(true);
    at(40_000); // the stranger is asked again, the members are not
    await cache.isMember(group(-5), 'telegram:1');
    await cache.isMember(group(-5), 'telegram:2');
    expect(asked.slice(3)).toEqual(['-6/telegram:1', '-5/telegram:2']);
    at(310_000);
    await cache.isMember(group(-5), 'telegram:1');
    expect(asked.at(-1)).toBe('-5/telegram:1');
  });

  it('holds at most so many answers, forgetting the oldest first', async () => {
    const { source, asked } = counted(() => true);
    const cache = new CachedMembers(source, { maxEntries: 2 });
    for (const id of [-1, -2, -3]) await cache.isMember(group(id), 'telegram:1');
    await cache.isMember(group(-3), 'telegram:1');
    await cache.isMember(group(-1), 'telegram:1');
    expect(asked).toEqual(['-1/telegram:1', '-2/telegram:1', '-3/telegram:1', '-1/telegram:1']);
  });
});
