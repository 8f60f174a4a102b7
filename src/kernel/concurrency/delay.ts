/** Resolves after `ms`, without keeping the process alive for it (a deadline, a grace period). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
