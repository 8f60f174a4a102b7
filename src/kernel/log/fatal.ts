import { inspect } from 'node:util';
import { environmentSecrets, Secrets } from './secrets.ts';

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
  const exit = (what: string) => (error: unknown) => {
    printFatal(`${prefix}: ${what}`, error, secrets);
    process.exit(1);
  };
  process.on('uncaughtException', exit('uncaught'));
  process.on('unhandledRejection', exit('unhandled rejection'));
}

/**
 * Redacts what anything writes to stdout and stderr: libraries print on their own (grammY's
 * runner prints a failed getUpdates, fetch error and URL included, with console.error). A
 * chunk without a secret is written untouched.
 */
export function redactStandardStreams(secrets: Secrets): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = (chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : undefined;
      const redacted = text === undefined ? text : secrets.redact(text);
      return write(redacted === text ? chunk : redacted, ...rest);
    };
  }
}

/**
 * What an entry (the bridge, a worker, the doctor) does first: its environment's secrets are
 * known before the configuration is read, and redacted from whatever it prints from then on, a
 * crash included. The configuration's secrets join them once it is read (`secrets.add`).
 */
export function guardOutput(prefix: string): Secrets {
  const secrets = new Secrets();
  for (const value of environmentSecrets(process.env)) secrets.add(value);
  exitOnUncaught(prefix, secrets);
  redactStandardStreams(secrets);
  return secrets;
}
