import { inspect } from 'node:util';
import type { Secrets } from './secrets.ts';

/**
 * An error as a person needs it to see what went wrong: its stack, and everything nested in
 * it (a `cause` chain, an AggregateError's errors, grammY's HttpError's `error`), which is
 * where a fetch error keeps the URL it called, token and all.
 */
export function describeError(error: unknown): string {
  return inspect(error, { depth: 8, breakLength: Infinity });
}

/** The last words of an entry that cannot go on: one message, every secret in it redacted. */
export function printFatal(prefix: string, error: unknown, secrets: Secrets): void {
  process.stderr.write(`${secrets.redact(`${prefix}: ${describeError(error)}`)}\n`);
}

/**
 * Node prints an uncaught exception or an unhandled rejection as it is, secrets and all: these
 * print it redacted instead, and exit with status 1, as Node would.
 */
export function exitOnUncaught(prefix: string, secrets: Secrets): void {
  process.on('uncaughtException', (error) => {
    printFatal(`${prefix}: uncaught`, error, secrets);
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    printFatal(`${prefix}: unhandled rejection`, reason, secrets);
    process.exit(1);
  });
}
