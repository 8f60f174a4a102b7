import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteSessions } from '../../src/work/workers/remote-sessions.ts';
import { QueueSigner } from '../../src/work/workers/signing.ts';
import { BridgeKeys } from '../../src/work/workers/bridge-keys.ts';
import { tempDir } from '../support/bridge-process.ts';
import { silentLog } from '../support/silent-log.ts';
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

describe("the bridge's side of its workers", () => {
  it('closes every connection it opened: nothing keeps reconnecting, or keeps the process alive, after it', async () => {
    const sessions = new RemoteSessions({
      redisUrl: redis.url,
      signer: new QueueSigner(TEST_QUEUE_SECRET),
      keys: await BridgeKeys.load(data.path),
      dataDir: data.path,
      leaseMs: 30_000,
      keepSeconds: 60,
      log: silentLog(),
    });
    await sessions.start();
    expect(await sessions.describe()).toMatch(/^on workers through .*: 0 workers connected, 0 running, 0 waiting for a worker$/);
    await expect.poll(async () => (await otherClients()).length).toBeGreaterThanOrEqual(2);
    await sessions.close();
    await expect.poll(otherClients).toEqual([]);
  });
});
