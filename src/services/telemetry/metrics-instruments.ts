import { metrics, type Meter } from '@opentelemetry/api';

/** The instrumentation scope every instrument of the bridge belongs to. */
export const SCOPE = 'jsonl-bridge';

/**
 * A set of instruments, made once for the meter provider installed now (MetricsSdk) and again
 * if another is installed: code records through the API wherever it is, and records nothing
 * (the API's no-op) in a process that installed none.
 */
export function instruments<T>(make: (meter: Meter) => T): () => T {
  let made: { provider: unknown; value: T } | undefined;
  return () => {
    const provider = metrics.getMeterProvider();
    if (made?.provider !== provider) made = { provider, value: make(provider.getMeter(SCOPE)) };
    return made.value;
  };
}

/** Durations of work, in seconds: a quick answer to an hour-long run. */
export const WORK_SECONDS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600];

/** Short waits, in seconds: a chat app's send budget, a job waiting for a worker. */
export const WAIT_SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300];

/** Tokens of one turn or run: a greeting to a long session's context. */
export const TOKEN_COUNTS = [100, 1_000, 4_000, 16_000, 64_000, 256_000, 1_000_000, 4_000_000];
