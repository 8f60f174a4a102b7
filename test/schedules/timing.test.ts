import { describe, expect, it } from 'vitest';
import { describeTiming, nextFire, parseAt, parseEvery } from '../../src/services/schedules/timing.ts';

// When schedules fire: the words people write, read in the bridge's time zone (croner does the calendar).
const BERLIN = 'Europe/Berlin';
const now = Date.parse('2026-11-25T12:00:00Z'); // 13:00 in Berlin, a Wednesday

describe('/every', () => {
  it('reads intervals, daily and weekday times, and cron expressions, leaving the prompt', () => {
    expect(parseEvery('30m check CI', BERLIN)).toEqual({ timing: { kind: 'every', ms: 1_800_000 }, rest: 'check CI' });
    expect(parseEvery('2h summarise', BERLIN).timing).toEqual({ kind: 'every', ms: 7_200_000 });
    expect(parseEvery('daily 09:00 standup notes', BERLIN)).toEqual({ timing: { kind: 'cron', pattern: '0 9 * * *' }, rest: 'standup notes' });
    expect(parseEvery('weekdays 18:30 wrap up', BERLIN)).toEqual({ timing: { kind: 'cron', pattern: '30 18 * * 1-5' }, rest: 'wrap up' });
    expect(parseEvery('0 9 * * 1-5 look at the night', BERLIN)).toEqual({ timing: { kind: 'cron', pattern: '0 9 * * 1-5' }, rest: 'look at the night' });
    expect(parseEvery('*/15 * * * * * poll', BERLIN)).toEqual({ timing: { kind: 'cron', pattern: '*/15 * * * * *' }, rest: 'poll' });
  });

  it('refuses what fires more often than every 10 s, and what is no time, saying how to write one', () => {
    expect(() => parseEvery('5s ping', BERLIN)).toThrow(/too often: a schedule fires at most every 10 s/);
    expect(() => parseEvery('* * * * * * ping', BERLIN)).toThrow(/too often/);
    expect(() => parseEvery('daily nine', BERLIN)).toThrow(/needs a time: daily 09:00/);
    expect(() => parseEvery('sometimes do it', BERLIN)).toThrow(/is not a time: use 30m, 2h, daily 09:00/);
  });

  it('fires daily 09:00 at 09:00 in the time zone, keeping the interval rhythm otherwise', () => {
    const daily = parseEvery('daily 09:00 x', BERLIN).timing;
    expect(new Date(nextFire(daily, now, BERLIN)!).toISOString()).toBe('2026-11-26T08:00:00.000Z');
    expect(new Date(nextFire(daily, now, 'UTC')!).toISOString()).toBe('2026-11-26T09:00:00.000Z');
    expect(nextFire({ kind: 'every', ms: 60_000 }, now, BERLIN)).toBe(now + 60_000);
    expect(describeTiming(daily, BERLIN)).toBe('daily 09:00');
  });
});

describe('/at', () => {
  it('reads in 20m, a clock time (tomorrow once it has passed today) and an ISO time', () => {
    expect(parseAt('in 20m look again', BERLIN, now)).toEqual({ timing: { kind: 'once', at: now + 1_200_000 }, rest: 'look again' });
    expect(new Date((parseAt('14:30 later', BERLIN, now).timing as { at: number }).at).toISOString()).toBe('2026-11-25T13:30:00.000Z');
    expect(new Date((parseAt('12:30 tomorrow it is', BERLIN, now).timing as { at: number }).at).toISOString()).toBe('2026-11-26T11:30:00.000Z');
    expect(parseAt('2026-12-01T09:00:00Z go', BERLIN, now).timing).toEqual({ kind: 'once', at: Date.parse('2026-12-01T09:00:00Z') });
  });

  it('refuses a time that has passed, and words that are no time', () => {
    expect(() => parseAt('2026-11-01T09:00:00Z late', BERLIN, now)).toThrow(/has passed/);
    expect(() => parseAt('in a while', BERLIN, now)).toThrow(/needs a duration/);
    expect(() => parseAt('soon do it', BERLIN, now)).toThrow(/is not a time/);
  });

  it('fires once', () => {
    const once = { kind: 'once' as const, at: now + 1000 };
    expect(nextFire(once, now, BERLIN)).toBe(now + 1000);
    expect(nextFire(once, now + 1000, BERLIN)).toBeUndefined();
  });
});
