import { openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type * as Pretty from 'pino-pretty';
import type { Secrets } from './secrets.ts';

/**
 * The bridge's log: one line per event, with its level and, where there is one, the `chat`
 * and `run` it is about (`log.child({ chat })`). Modules take a Log and never print.
 */
export type Log = Logger;

/** `pretty`: a line a person reads in a terminal; `json`: one object a line, for journald and collectors. */
export type LogFormat = 'pretty' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['pretty', 'json'];

export interface LogOptions {
  format: LogFormat;
  /** Redacted from every line, wherever they appear. */
  secrets: Secrets;
  /** Where lines go; default stderr (stdout is the console's). */
  destination?: NodeJS.WritableStream;
  /**
   * Every line goes to this file (owner-only) instead, and only warnings and errors about the
   * bridge itself still go to `destination`: the console keeps the terminal for the
   * conversation, which shows its own turns' failures, and a webhook refused at the door (a 401,
   * a 404) is the file's (see TERMINAL_SKIPS).
   */
  file?: string;
}

/** The pretty formatter, loaded for a log a person reads (a JSON log, a service's, never needs it). */
const prettyFormatter = (): typeof Pretty.PinoPretty => (createRequire(import.meta.url)('pino-pretty') as typeof Pretty).PinoPretty;

/**
 * Lines are written synchronously: the line before a crash or an exit is the one that says
 * why, and must not be lost in a buffer.
 */
export function createLog({ format, secrets, destination = process.stderr, file }: LogOptions): Log {
  const options = {
    level: 'info',
    timestamp: pino.stdTimeFunctions.isoTime,
    // "info", not 30: greppable, and what journald and collectors show.
    formatters: { level: (label: string) => ({ level: label }) },
    hooks: { streamWrite: (line: string) => secrets.redact(line) },
  };
  // A stream, or a file's descriptor.
  const formatted = (to: NodeJS.WritableStream | number, colorize?: boolean): pino.DestinationStream =>
    format === 'json'
      ? typeof to === 'number'
        ? pino.destination({ dest: to, sync: true })
        : to
      : prettyFormatter()({
          destination: to,
          sync: true,
          singleLine: true,
          translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
          ignore: 'pid,hostname',
          ...(colorize === undefined ? {} : { colorize }),
        });
  if (!file) return pino(options, formatted(destination));
  return pino(
    options,
    pino.multistream([
      { level: 'info', stream: formatted(openSync(file, 'a', 0o600), false) },
      { level: 'warn', stream: aboutTheBridge(formatted(destination)) },
    ]),
  );
}

/** Work whose failure is worth only a warning (a notice to a chat, a note): logged as `<what> failed: <why>`, never thrown. */
export function warnIfFails(work: Promise<unknown>, log: Log, what: string, fields: object = {}): Promise<void> {
  return work.then(
    () => undefined,
    (error: Error) => log.warn(fields, `${what} failed: ${error.message}`),
  );
}

/** Fields of a line about a chat's work or about a caller from outside, not about the bridge. */
const TERMINAL_SKIPS = ['chat', 'hook', 'login'];

/** Passes on the lines about the bridge itself: those with none of TERMINAL_SKIPS. */
function aboutTheBridge(stream: pino.DestinationStream): pino.DestinationStream {
  return {
    write(line: string) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (TERMINAL_SKIPS.some((field) => entry[field] !== undefined)) return;
      stream.write(line);
    },
  };
}
