import { pino } from 'pino';
import type { Log } from '../../src/kernel/log/logger.ts';

/** A Log that writes nothing: for tests and benchmarks that do not look at it. */
export function silentLog(): Log {
  return pino({ level: 'silent' });
}
