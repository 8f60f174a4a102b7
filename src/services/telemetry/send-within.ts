import { warnIfFails, type Log } from '../../kernel/log/logger.ts';

/** However slow or unreachable the collector, an ending process waits at most this long for its spans or its last metrics. */
export const SEND_WITHIN_MS = 5000;

/**
 * Waits for a telemetry send (a flush, a shutdown's last export) at most SEND_WITHIN_MS: the
 * OTLP exporters retry with backoff, which on a dead collector held a stopping bridge for 14 s.
 * A failure is a warning, never a throw: telemetry never stops what it watches.
 */
export function sendWithin(work: Promise<void>, what: string, log: Log): Promise<void> {
  return Promise.race([warnIfFails(work, log, what), new Promise<void>((resolve) => setTimeout(resolve, SEND_WITHIN_MS).unref())]);
}
