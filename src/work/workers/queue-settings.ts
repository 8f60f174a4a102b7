import { ConfigError } from '../../kernel/errors/config-error.ts';
import { onOff, wholeNumber } from '../../kernel/settings/variables.ts';

/** The queue to workers, and what goes through it. */
export interface QueueSettings {
  /** The Redis of the queue subagent runs go through (BRIDGE_REDIS_URL); none: they run in the bridge's process. */
  redisUrl: string | undefined;
  /** What the bridge and its workers sign what goes through Redis with (BRIDGE_QUEUE_SECRET): set whenever redisUrl is. */
  queueSecret: string | undefined;
  /**
   * Chats' own sessions on workers (BRIDGE_SESSION_WORKERS, needs redisUrl), and on a worker
   * how many chats' live CLI processes it holds (BRIDGE_WORKER_LIVE_SESSIONS).
   */
  sessionWorkers: { on: boolean; liveSessions: number };
}

/** The shortest BRIDGE_QUEUE_SECRET taken: 32 characters, enough for an HMAC key nobody guesses. */
export const MIN_QUEUE_SECRET_CHARS = 32;

export function queueSettings(env: NodeJS.ProcessEnv): QueueSettings {
  const redisUrl = env.BRIDGE_REDIS_URL?.trim() || undefined;
  if (redisUrl && (!URL.canParse(redisUrl) || !/^rediss?:$/.test(new URL(redisUrl).protocol)))
    throw new ConfigError(
      `BRIDGE_REDIS_URL: expected a redis:// or rediss:// URL, like redis://:password@127.0.0.1:6379/0, got "${redisUrl.replace(/:[^:@/]*@/, ':***@')}"`,
    );
  return { redisUrl, queueSecret: queueSecret(env, redisUrl), sessionWorkers: sessionWorkers(env, redisUrl) };
}

/** Required with a queue: without it, whoever can write to Redis could run commands on the workers. */
function queueSecret(env: NodeJS.ProcessEnv, redisUrl: string | undefined): string | undefined {
  if (!redisUrl) return undefined;
  const secret = env.BRIDGE_QUEUE_SECRET?.trim() ?? '';
  if (!secret)
    throw new ConfigError(
      `BRIDGE_QUEUE_SECRET is not set: BRIDGE_REDIS_URL needs it, the same on the bridge and every worker, at least ${MIN_QUEUE_SECRET_CHARS} characters (openssl rand -base64 33)`,
    );
  if (secret.length < MIN_QUEUE_SECRET_CHARS)
    throw new ConfigError(`BRIDGE_QUEUE_SECRET: expected at least ${MIN_QUEUE_SECRET_CHARS} characters (openssl rand -base64 33), got ${secret.length}`);
  return secret;
}

/** Chats' sessions on workers need the queue they reach the workers through. */
function sessionWorkers(env: NodeJS.ProcessEnv, redisUrl: string | undefined): QueueSettings['sessionWorkers'] {
  const on = onOff(env, 'BRIDGE_SESSION_WORKERS', false);
  if (on && !redisUrl) throw new ConfigError('BRIDGE_SESSION_WORKERS: on needs BRIDGE_REDIS_URL (the Redis the bridge reaches its workers through)');
  return { on, liveSessions: wholeNumber(env, 'BRIDGE_WORKER_LIVE_SESSIONS', 8, 1) };
}
