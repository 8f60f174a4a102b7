// Waiting that gives up early when the client hangs up or the mock shuts down,
// so a delayed or never-answered reply cannot keep a test process alive.

/** Resolves true after `ms`, or false as soon as `signal` aborts. `Infinity` waits for the abort. */
export function waitUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      if (timer !== undefined) clearTimeout(timer);
      resolve(false);
    };
    const timer = Number.isFinite(ms)
      ? setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          resolve(true);
        }, ms)
      : undefined;
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
