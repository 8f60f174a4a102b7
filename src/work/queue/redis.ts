import { Redis } from 'ioredis';
import type { Log } from '../../kernel/log/logger.ts';

/**
 * Every key the bridge and its workers use starts with this, BullMQ's own included: an ACL
 * user limited to `~jsonl-bridge:*` and `&jsonl-bridge:*` is all they need.
 */
export const PREFIX = 'jsonl-bridge';
/** The BullMQ queue subagent runs go through (dashboards such as Bull Board show it under PREFIX). */
export const QUEUE_NAME = 'runs';

/** The names of what a run has in Redis besides its BullMQ job (whose id is the run id). */
export const keys = {
  /** A stream of what the run reports: its lines, its session, its tool calls. */
  events: (runId: string) => `${PREFIX}:run:${runId}:events`,
  /** Set by the worker that starts the run: a take after a stall knows its CLI may have run. */
  started: (runId: string) => `${PREFIX}:run:${runId}:started`,
  /** How many times the bridge placed the run on a worker: each placement's number, its channel's and its bearer's. */
  placements: (runId: string) => `${PREFIX}:run:${runId}:placements`,
  /** The bridge's answer to one claim of the run by a worker (its grant, sealed for that worker, or why not). */
  grant: (runId: string, claim: string) => `${PREFIX}:run:${runId}:grant:${claim}`,
  /** Set when the run is to stop (why): read by the worker running it, or by one that takes it later. */
  stop: (runId: string) => `${PREFIX}:run:${runId}:stop`,
  /** What a draining worker left for the next one to go on with the run (see Handback). */
  handback: (runId: string) => `${PREFIX}:run:${runId}:handback`,
  /** A list of messages for the run that its worker has not taken yet. */
  inbox: (runId: string) => `${PREFIX}:run:${runId}:inbox`,
  /** A set of the holds on the run's timeout (each a person it waits on). */
  holds: (runId: string) => `${PREFIX}:run:${runId}:holds`,
  /** How far the bridge has read each run's events (a hash: run id → stream id). */
  read: `${PREFIX}:events-read`,
  /** Pub/sub: the bell rung with a run's id when something is asked of it (see RunControl). */
  control: `${PREFIX}:control`,
};

/**
 * A connection as BullMQ wants it: commands wait for a reconnect instead of failing, since
 * losing a job's completion to a blip would lose the run. Errors are reported through
 * `onError` (once per outage is up to the caller), never thrown at the process.
 */
export function connect(url: string, onError: (error: Error) => void = () => {}): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false, retryStrategy: reconnectDelayMs });
  redis.on('error', onError);
  return redis;
}

/**
 * Waits between reconnection attempts: doubling from half a second, capped at 10 s so a
 * Redis back after a long outage is found within seconds (runs wait on it).
 */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(500 * 2 ** (attempt - 1), 10_000);
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
