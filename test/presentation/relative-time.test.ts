import { describe, expect, it } from 'vitest';
import { timeAgo } from '../../src/work/presentation/relative-time.ts';

describe('how long ago', () => {
  it.each([
    [3_000, 'just now'],
    [45_000, '45 s ago'],
    [(12 * 60 + 49) * 1000, '13 min ago'],
    [2 * 3600_000, '2 h ago'],
    [(2 * 60 + 5) * 60_000, '2 h 5 min ago'],
    [30 * 3600_000, 'yesterday'],
    [3 * 86400_000, '3 days ago'],
  ])('%d ms is "%s", never a clock time like "12:49 ago"', (ms, said) => {
    expect(timeAgo(ms)).toBe(said);
  });
});
