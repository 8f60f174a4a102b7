import type { Log } from '../../kernel/log/logger.ts';
import { fail, firstLine, type CheckResult } from '../../kernel/ports/check-result.ts';
import type { Transport } from '../../kernel/ports/transport.ts';

/** Waits between attempts double from 1 s up to this. */
const MAX_WAIT_S = 60;

export interface Reaching {
  log: Log;
  /** The refusal to throw at once (nothing will work until a setting is changed), if the error is one. */
  refusal: (error: unknown) => Error | undefined;
  /** What a failed attempt's line says went wrong. */
  why?: (error: unknown) => string;
  wait?: (ms: number) => Promise<unknown>;
}

/**
 * What a transport's start asks of its service (who the bot is), asked until `service` answers:
 * a line per failed attempt, backing off, forever (a server may boot before its network), and a
 * refusal thrown at once.
 */
export async function untilAnswered<T>(
  service: string,
  ask: () => Promise<T>,
  { log, refusal, why = (error) => (error as Error).message, wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms)) }: Reaching,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await ask();
      if (attempt > 1) log.info(`${service} answered; starting`);
      return answer;
    } catch (error) {
      const refused = refusal(error);
      if (refused) throw refused;
      const seconds = Math.min(MAX_WAIT_S, 2 ** (attempt - 1));
      log.warn(`${service} is unreachable: ${why(error)}; trying again in ${seconds} s (attempt ${attempt})`);
      await wait(seconds * 1000);
    }
  }
}

/** The doctor's line for a service that did not answer: `setting` says where it is looked for. */
export function unreachable(subject: string, service: string, error: unknown, setting: string): CheckResult {
  return fail(
    subject,
    `${service} is unreachable: ${firstLine(error instanceof Error ? error.message : String(error))}`,
    `Check the network, a proxy, or ${setting}.`,
  );
}

/** A chat app's line once the bridge is up: who the bot is there (`as @name on the app`), what it runs with, and `tail`. */
export function greetAs(who: () => string, tail = () => ''): Transport['greet'] {
  return ({ clis, defaultCli, dataDir }, log) => log.info(`jsonl-bridge running ${who()}: ${clis} CLIs (default ${defaultCli}), data in ${dataDir}${tail()}`);
}

/** How long one call to the service takes now: its round trip, for /status. */
export function roundTrip(ask: () => Promise<unknown>): () => Promise<number> {
  return async () => {
    const start = performance.now();
    await ask();
    return performance.now() - start;
  };
}
