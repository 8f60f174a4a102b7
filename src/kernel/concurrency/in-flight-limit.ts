/** At most `limit` calls under way at once; the rest wait their turn, first come first served. */
export function inFlightLimit(limit: number): <T>(call: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (call) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await call();
    } finally {
      // The slot passes straight to the next in line, or frees.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
