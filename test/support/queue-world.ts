import { Redis } from 'ioredis';
import { START_WAIT_MS, startWorkerProcess, type BridgeProcess } from './bridge-process.ts';
import type { RedisServer } from './redis-server.ts';
import { startTelegramWorld, type TelegramWorld } from './telegram-world.ts';

/**
 * The bridge with a queue: a real redis-server, the bridge process on it (BRIDGE_REDIS_URL),
 * and worker processes (`npm run worker`) taking its runs, all over the fake CLI and the fake
 * Bot API.
 */
export interface QueueWorld extends TelegramWorld {
  redis: RedisServer;
  workers: Map<string, BridgeProcess>;
  /** Starts (or starts again) the worker of this name. */
  startWorker(name: string): Promise<BridgeProcess>;
}

/** What the bridge and its workers in tests sign Redis traffic with (BRIDGE_QUEUE_SECRET). */
export const TEST_QUEUE_SECRET = 'test-queue-secret-0123456789abcdef';

/** Workers that stop renewing a lock this long are taken for dead: short, so a test sees it, and far above a loaded machine's pauses. */
export const TEST_LOCK_SECONDS = 4;

/** Each worker's own environment beside the world's (a machine of its own: its CLIs' home, say). */
export type WorkerEnv = (name: string) => Record<string, string>;

export async function startQueueWorld(
  redis: RedisServer,
  workerNames: string[],
  extraEnv: Record<string, string> = {},
  workerEnv: WorkerEnv = () => ({}),
): Promise<QueueWorld> {
  // The lock is the bridge's setting too: its own stall check runs as often as the workers' (BullMQ runs one check per interval across them all).
  const env = { BRIDGE_REDIS_URL: redis.url, BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET, BRIDGE_WORKER_LOCK_SECONDS: String(TEST_LOCK_SECONDS), ...extraEnv };
  return addWorkers(await startTelegramWorld(env), redis, workerNames, workerEnv);
}

/** Workers beside a bridge already started on `redis`, with its environment less its Telegram settings. */
export async function addWorkers(base: TelegramWorld, redis: RedisServer, workerNames: string[], ownEnv: WorkerEnv = () => ({})): Promise<QueueWorld> {
  const workers = new Map<string, BridgeProcess>();
  // A worker has no bot token: it is not given one.
  const { TELEGRAM_BOT_TOKEN: _token, TELEGRAM_API_ROOT: _root, ...workerEnv } = base.env;
  const startWorker = async (name: string) => {
    // A test's end drains its workers: what still runs there is handed back soon, not after a minute.
    const worker = startWorkerProcess({ BRIDGE_DRAIN_SECONDS: '2', ...workerEnv, ...ownEnv(name), BRIDGE_WORKER_NAME: name });
    await worker.waitForLog(/taking work from/, START_WAIT_MS);
    workers.set(name, worker);
    return worker;
  };
  await Promise.all(workerNames.map(startWorker));
  const stopBase = base.stop.bind(base);
  return Object.assign(base, {
    redis,
    workers,
    startWorker,
    async stop() {
      await Promise.all(
        [...workers.values()].map(async (worker) => {
          worker.kill('SIGTERM');
          await worker.exited;
        }),
      );
      await stopBase();
    },
  });
}

/**
 * After a queue test: a failed one prints the logs of the bridge and its workers (a failure
 * here is mostly a matter of timing between processes, and they say which side stalled), then
 * the world stops and Redis is emptied for the next test.
 */
export async function endQueueTest(failed: boolean, world: QueueWorld | undefined, redis: RedisServer): Promise<void> {
  if (failed && world) {
    const logs = [['bridge', world.bridge.log()], ...[...world.workers].map(([name, worker]) => [`worker ${name}`, worker.log()])];
    console.error(logs.map(([who, log]) => `--- ${who} ---\n${log}`).join('\n'));
  }
  await world?.stop();
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
}
