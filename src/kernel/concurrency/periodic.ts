/**
 * Runs `task` every `intervalMs` (first after one interval) until stopped; a run that fails
 * is reported to `onError` and the next runs all the same. The timer does not keep the
 * process alive.
 */
export function every(intervalMs: number, task: () => Promise<unknown>, onError: (error: Error) => void): { stop: () => void } {
  const timer = setInterval(() => void task().catch(onError), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
