import type { Redis } from 'ioredis';
import { keys } from './redis.ts';

/**
 * What the bridge tells the worker running a run, over Redis pub/sub: stop it, hold its
 * timeout while it waits on a person (and release that hold), or give it a message. A stop is
 * also left in a key, for a worker that takes the run after the message went out or was cut
 * off from Redis when it did.
 */
export type ControlMessage =
  | { op: 'stop'; runId: string; reason: string }
  | { op: 'hold' | 'release'; runId: string; holdId: string }
  | { op: 'send'; runId: string; text: string; id: string };

export async function sendControl(redis: Redis, message: ControlMessage): Promise<void> {
  await redis.publish(keys.control, JSON.stringify(message));
}

/**
 * Subscribes `subscriber` (a connection given to it alone) to the control messages.
 * Messages published while it was cut off from Redis never arrive: `resubscribed` is called
 * each time it is subscribed again after that, for what was left in keys meanwhile.
 */
export async function onControl(subscriber: Redis, handle: (message: ControlMessage) => void, resubscribed: () => void): Promise<void> {
  subscriber.on('message', (channel: string, text: string) => {
    if (channel !== keys.control) return;
    try {
      handle(JSON.parse(text) as ControlMessage);
    } catch {
      // not one of ours
    }
  });
  await subscriber.subscribe(keys.control);
  // On 'ready' the connection has queued its own resubscription; this one is answered after it.
  subscriber.on('ready', () => void subscriber.subscribe(keys.control).then(resubscribed, () => {}));
}
