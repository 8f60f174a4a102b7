import { describe, expect, it } from 'vitest';
import { RefusalThrottle } from '../../src/chat/people/refusals.ts';

describe('refusing strangers', () => {
  it('refuses each user once per window', () => {
    const throttle = new RefusalThrottle(60_000);
    expect(throttle.shouldRefuse('1', 0)).toBe(true);
    expect(throttle.shouldRefuse('1', 59_999)).toBe(false);
    expect(throttle.shouldRefuse('2', 59_999)).toBe(true);
    expect(throttle.shouldRefuse('1', 60_000)).toBe(true);
  });

  it('forgets strangers whose window has passed once the crowd is large', () => {
    const throttle = new RefusalThrottle(1000);
    for (let id = 0; id < 1001; id++) throttle.shouldRefuse(String(id), 0);
    expect(throttle.shouldRefuse('5000', 2000)).toBe(true); // pruned the 1,001 stale entries
    expect((throttle as unknown as { last: Map<string, number> }).last.size).toBe(1);
  });
});
