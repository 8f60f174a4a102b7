import { describe, expect, it } from 'vitest';
import { LivePool, type LiveHolder } from '../../src/engine/session/live-pool.ts';

/** A session holding a live CLI, as the pool sees it. */
function holder(lastUsed: number, busy = false): LiveHolder & { closed: number } {
  return {
    busy,
    liveLastUsed: lastUsed,
    closed: 0,
    async closeLive() {
      this.closed++;
    },
  };
}

describe('the bound on live CLIs', () => {
  it('closes the least recently used idle one past the limit, never a busy one', () => {
    const pool = new LivePool({ max: 2, idleMs: 60_000 });
    const [old, busyOld, recent, newcomer] = [holder(1), holder(0, true), holder(5), holder(9)];
    expect([pool.admit(busyOld), pool.admit(old), pool.admit(recent)]).toEqual([true, true, true]);
    // Three for two places: the oldest idle one went, the busy one stays.
    expect([old.closed, busyOld.closed, recent.closed, pool.size]).toEqual([1, 0, 0, 2]);
    expect(pool.admit(newcomer)).toBe(true);
    expect([recent.closed, busyOld.closed]).toEqual([1, 0]);
  });

  it('keeps a newcomer for its turn only when every other one is busy', () => {
    const pool = new LivePool({ max: 1, idleMs: 60_000 });
    const working = holder(0, true);
    pool.admit(working);
    const newcomer = holder(1);
    expect(pool.admit(newcomer)).toBe(false);
    expect([working.closed, pool.size]).toEqual([0, 1]);
  });

  it('BRIDGE_LIVE_SESSIONS=0 keeps none: every turn has its own process', () => {
    const pool = new LivePool({ max: 0, idleMs: 60_000 });
    expect(pool.admit(holder(0))).toBe(false);
    expect(pool.size).toBe(0);
  });

  it('closes the ones idle past BRIDGE_IDLE_MINUTES at a sweep, and no busy one', async () => {
    const pool = new LivePool({ max: 8, idleMs: 30 * 60_000 });
    const now = 100 * 60_000;
    const [stale, fresh, busyStale] = [holder(now - 31 * 60_000), holder(now - 5 * 60_000), holder(now - 40 * 60_000, true)];
    for (const h of [stale, fresh, busyStale]) pool.admit(h);
    await pool.sweep(now);
    expect([stale.closed, fresh.closed, busyStale.closed, pool.size]).toEqual([1, 0, 0, 2]);
  });
});
