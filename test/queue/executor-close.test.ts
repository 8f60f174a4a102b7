import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueExecutor } from '../../src/work/queue/queue-executor.ts';
import { QueueSigner } from '../../src/work/queue/signing.ts';
import { BridgeKeys } from '../../src/work/queue/bridge-keys.ts';
import { tempDir } from '../support/bridge-process.ts';
import { silentLog } from '../../src/kernel/log/logger.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { TEST_QUEUE_SECRET } from '../support/queue-world.ts';

let redis: RedisServer;
let data: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  redis = await startRedis();
  data = await tempDir('executor-close-');
});
afterAll(async () => {
  await redis.stop();
  await data.remove();
});

/** The other clients connected to the server now. */
async function otherClients(): Promise<string[]> {
  const probe = new Redis(redis.url, { lazyConnect: true });
  await probe.connect();
  try {
    const list = (await probe.client('LIST')) as string;
    return list.split('\n').filter((line) => line.trim() && !line.includes('cmd=client|list'));
  } finally {
    probe.disconnect();
  }
}

describe('the queue executor', () => {
  it('closes every connection it opened: nothing keeps reconnecting, or keeps the process alive, after it', async () => {
    const executor = new QueueExecutor({
      redisUrl: redis.url,
      keepSeconds: 60,
      toolsFor: () => undefined,
      toolTimeoutMs: 60_000,
      lockSeconds: 30,
      signer: new QueueSigner(TEST_QUEUE_SECRET),
      keys: await BridgeKeys.load(data.path),
      log: silentLog(),
    });
    // Its own stall check is no worker.
    expect(await executor.describe()).toMatch(/^on workers through .*: 0 workers connected/);
    await expect.poll(async () => (await otherClients()).length).toBeGreaterThanOrEqual(3);
    await executor.close();
    await expect.poll(otherClients).toEqual([]);
  });
});
