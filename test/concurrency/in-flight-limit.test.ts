import { describe, expect, it } from 'vitest';
import { inFlightLimit } from '../../src/kernel/concurrency/in-flight-limit.ts';

describe('inFlightLimit', () => {
  it('runs at most so many calls at once, the others in the order they came, failures freeing their slot too', async () => {
    const limit = inFlightLimit(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        limit(async () => {
          started.push(i);
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
          if (i % 4 === 0) throw new Error(`call ${i} failed`);
          return i;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(3);
    expect(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))).toEqual([1, 2, 3, 5, 6, 7, 9]);
  });
});
