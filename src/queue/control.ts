import type { Redis } from 'ioredis';
import { keys } from './redis.ts';

/** A message for a run, as SendToSubagent and /subagents send name it. */
export interface RunMessage {
  id: string;
  text: string;
}

/** Everything asked of a run that its worker has not acted on yet. */
export interface RunAsks {
  /** Why it is to stop, once it is. */
  stop?: string;
  /** Messages not yet taken, oldest first: each is taken once. */
  messages: RunMessage[];
  /** The holds on its timeout now (people it waits on): the whole set, not a change. */
  holds: string[];
}

/**
 * What the bridge asks of a run on a worker: stop it, give it a message, hold its timeout
 * while it waits on a person. Each ask is kept in the run's keys, then the bell rings (one
 * pub/sub message naming the run), and the worker running it reads the keys. Pub/sub drops
 * what is published while a subscriber reconnects; the keys do not, and a worker reads them
 * again when it is subscribed again and when it starts the run.
 */
export class RunControl {
  constructor(
    private readonly redis: Redis,
    /** How long the keys outlive the last ask (the run's retention). */
    private readonly keepSeconds: number,
  ) {}

  async stop(runId: string, reason: string): Promise<void> {
    await this.ring(runId, this.redis.multi().set(keys.stop(runId), reason, 'EX', this.keepSeconds));
  }

  async send(runId: string, message: RunMessage): Promise<void> {
    const inbox = keys.inbox(runId);
    await this.ring(runId, this.redis.multi().rpush(inbox, JSON.stringify(message)).expire(inbox, this.keepSeconds));
  }

  async hold(runId: string, holdId: string): Promise<void> {
    const holds = keys.holds(runId);
    await this.ring(runId, this.redis.multi().sadd(holds, holdId).expire(holds, this.keepSeconds));
  }

  async release(runId: string, holdId: string): Promise<void> {
    await this.ring(runId, this.redis.multi().srem(keys.holds(runId), holdId));
  }

  /** The ask and the bell in one transaction: a worker that hears the bell finds the ask. */
  private async ring(runId: string, ask: ReturnType<Redis['multi']>): Promise<void> {
    await ask.publish(keys.control, runId).exec();
  }
}

/**
 * The worker's side: what is asked of a run now. Messages are taken (removed) in the same
 * transaction that reads them, so two reads never deliver one twice.
 */
export async function readAsks(redis: Redis, runId: string): Promise<RunAsks> {
  const replies = await redis.multi().get(keys.stop(runId)).lrange(keys.inbox(runId), 0, -1).del(keys.inbox(runId)).smembers(keys.holds(runId)).exec();
  const [stop, messages, , holds] = (replies ?? []).map(([error, value]) => {
    if (error) throw error;
    return value;
  }) as [string | null, string[], number, string[]];
  return {
    ...(stop ? { stop } : {}),
    messages: messages.flatMap((text) => {
      try {
        return [JSON.parse(text) as RunMessage];
      } catch {
        return [];
      }
    }),
    holds,
  };
}

/** Forgets what was asked of a run that has ended here, but its stop (a later attempt must see it). */
export async function forgetAsks(redis: Redis, runId: string): Promise<void> {
  await redis.del(keys.inbox(runId), keys.holds(runId));
}

/**
 * Subscribes `subscriber` (a connection given to it alone) to the bell: `rang` gets the run
 * each time something is asked of it, and is called with none each time the subscriber is
 * subscribed again after being cut off from Redis (any run may have been asked meanwhile).
 */
export async function onAsks(subscriber: Redis, rang: (runId: string | undefined) => void): Promise<void> {
  subscriber.on('message', (channel: string, runId: string) => {
    if (channel === keys.control) rang(runId);
  });
  await subscriber.subscribe(keys.control);
  // On 'ready' the connection has queued its own resubscription; this one is answered after it.
  subscriber.on(
    'ready',
    () =>
      void subscriber.subscribe(keys.control).then(
        () => rang(undefined),
        () => {},
      ),
  );
}
