import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SilenceWatch } from '../../src/engine/session/silence-watch.ts';

// The watch reads the clock once for a chunk's events, after them (reading it per event was a
// third of the engine's own time): progress still counts from when it came, to the millisecond.
beforeEach(() => vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] }));
afterEach(() => vi.useRealTimers());

const flush = () => Promise.resolve();

describe('the silence watch', () => {
  it('counts the silence from the last chunk that showed progress', async () => {
    const silent = vi.fn();
    const watch = new SilenceWatch(1000, silent);
    vi.advanceTimersByTime(900);
    watch.observe({ type: 'text', text: 'working' });
    watch.observe({ type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } });
    await flush();
    vi.advanceTimersByTime(999);
    expect(silent).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(silent).toHaveBeenCalledOnce();
  });

  it('reads the clock once for a chunk of events, not once for each', async () => {
    const watch = new SilenceWatch(1000, () => {});
    const now = vi.spyOn(Date, 'now');
    for (let i = 0; i < 100; i++) watch.observe({ type: 'tool_start', id: `t${i}`, name: 'Bash', input: {} });
    await flush();
    expect(now).toHaveBeenCalledOnce();
    watch.stop();
  });

  it('takes no progress from retries and errors, and quotes the last of them', async () => {
    const silent = vi.fn();
    const watch = new SilenceWatch(1000, silent);
    vi.advanceTimersByTime(500);
    watch.observe({ type: 'log', line: 'Reconnecting… 1/5' });
    watch.observe({ type: 'error', message: 'API retry 1 of 5' });
    await flush();
    vi.advanceTimersByTime(500);
    expect(silent).toHaveBeenCalledWith('API retry 1 of 5');
    watch.stop();
  });
});
