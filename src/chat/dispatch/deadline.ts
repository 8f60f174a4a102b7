/**
 * Runs `work` for at most `ms`: past it, its signal is aborted (work that listens to it stops)
 * and this returns 'timed_out' without waiting further. A failure within the deadline is
 * thrown; one after it goes to `late`, never unhandled.
 */
export async function runWithDeadline(work: (signal: AbortSignal) => Promise<void>, ms: number, late: (error: unknown) => void): Promise<'done' | 'timed_out'> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timed_out'>((resolve) => {
    timer = setTimeout(() => resolve('timed_out'), ms);
  });
  const running = work(controller.signal).then(() => 'done' as const);
  try {
    const ended = await Promise.race([running, deadline]);
    if (ended === 'timed_out') {
      controller.abort(new Error(`stopped after its ${Math.round(ms / 1000)} s deadline`));
      running.catch(late);
    }
    return ended;
  } finally {
    clearTimeout(timer);
  }
}
