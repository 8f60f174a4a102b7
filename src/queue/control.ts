import type { Redis } from 'ioredis';
import { keys } from './redis.ts';

/**
 * What the bridge tells the worker running a run, over Redis pub/sub: stop it, hold its
 * timeout while it waits on a person (and release that hold), or give it a message. A stop is also left in a key,
 * for a worker that takes the run after the message went out.
 */
export type ControlMessage =
  | { op: 'stop'; runId: string; reason: string }
  | { op: 'hold' | 'release'; runId: string; holdId: string }
  | { op: 'send'; runId: string; text: string; id: string };

export async function sendControl(redis: Redis, message: ControlMessage): Promise<void> {
  await redis.publish(keys.control, JSON.stringify(message));
}

/** Subscribes `subscriber` (a connection given to it alone) to the control messages. */
export async function onControl(subscriber: Redis, handle: (message: ControlMessage) => void): Promise<void> {
  subscriber.on('message', (channel: string, text: string) => {
    if (channel !== keys.control) return;
    try {
      handle(JSON.parse(text) as ControlMessage);
    } catch {
      // not one of ours
    }
  });
  await subscriber.subscribe(keys.control);
}
