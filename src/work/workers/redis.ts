import { Redis } from 'ioredis';
import type { Log } from '../../kernel/log/logger.ts';

/**
 * Every key the bridge and its workers use starts with this: an ACL
 * user limited to `~jsonl-bridge:*` and `&jsonl-bridge:*` is all they need.
 */
export const PREFIX = 'jsonl-bridge';

/** The names of what the bridge and its workers share in Redis besides the registry's (see worker-registry.ts). */
export const keys = {
  /** A stream of what a session's worker reports in one placement (see sessionStream). */
  events: (stream: string) => `${PREFIX}:run:${stream}:events`,
  /** How far the bridge has read each stream (a hash: stream → its signed read mark). */
  read: `${PREFIX}:events-read`,
  /** Pub/sub: the bell rung with a worker's name when something is asked of it. */
  control: `${PREFIX}:control`,
};

/**
 * A connection that outlasts a blip: commands wait for a reconnect instead of failing, since
 * a report or an ask lost to a blip would lose the turn it belongs to. Errors are never thrown at
 * the process (followOutages says them). Reconnections wait doubling from half a second, capped
 * at 10 s so a Redis back after a long outage is found within seconds (runs wait on it).
 */
export function connect(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: (attempt) => Math.min(500 * 2 ** (attempt - 1), 10_000) });
  redis.on('error', () => {});
  return redis;
}

/**
 * Follows a connection's outages: `down` once when it is lost, a log line per failed attempt
 * to reach Redis again (why, and when the next is), then `up` and a line when it answers.
 * Whoever reads the log of a server whose Redis is down sees why nothing moves, and that
 * something still tries. A connection closed on purpose is no outage.
 */
export function followOutages(redis: Redis, label: string, log: Log, on: { down?: () => void; up?: () => void } = {}): void {
  let lastError = '';
  let attempts = 0;
  let answered = false;
  redis.on('error', (error: Error) => (lastError = error.message));
  redis.on('reconnecting', (delayMs: number) => {
    if (attempts++ === 0) on.down?.();
    log.warn(`${label} did not answer${lastError ? ` (${lastError})` : ''}; trying again in ${delayMs / 1000} s (attempt ${attempts})`);
    lastError = '';
  });
  redis.on('ready', () => {
    if (attempts > 0) {
      log.info(`${label} is reachable${answered ? ' again' : ''}`);
      on.up?.();
    }
    attempts = 0;
    answered = true;
  });
}

/**
 * Resolves once `redis` answers a PING, however long it is unreachable; rejects at once when it
 * refuses the credentials (nothing would ever work), with `refused` and Redis's own words.
 */
export async function answered(redis: Redis, refused: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => {
      if (!/WRONGPASS|NOAUTH|NOPERM/.test(error.message)) return;
      redis.off('error', onError);
      redis.disconnect();
      reject(new Error(`${refused}: ${error.message}`));
    };
    redis.on('error', onError);
    redis.ping().then(() => {
      redis.off('error', onError);
      resolve();
    }, reject);
  });
}

/** The URL without its password, for messages and logs. */
export function describeRedis(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    if (parsed.username === 'default') parsed.username = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return 'Redis';
  }
}
