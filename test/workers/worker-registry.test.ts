import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QueueSigner } from '../../src/work/workers/signing.ts';
import { registryKeys, WorkerPresence, WorkerRegistry } from '../../src/work/workers/worker-registry.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';

// Who can take chats' sessions, on a real redis-server: each worker's signed state with an
// expiry, placement on the least loaded, and the lease a chat holds on its worker.
const SECRET = 'a-queue-secret-of-at-least-32-characters';
const LEASE_MS = 600;
let redis: RedisServer;
let client: Redis;
const presences: WorkerPresence[] = [];
beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
});
afterAll(async () => {
  client.disconnect();
  await redis.stop();
});
afterEach(async () => {
  for (const presence of presences.splice(0)) await presence.leave();
  await client.flushall();
});

const signer = new QueueSigner(SECRET);
/** The bridge's own key, which signs its leases (no worker has it). */
const bridgeOwn = new QueueSigner(Buffer.alloc(32, 5));
const registry = () => new WorkerRegistry(client, signer, LEASE_MS, bridgeOwn);
const KEY = 'x'.repeat(43);
function worker(name: string, capacity: number, load: number, chats: string[] = []): WorkerPresence {
  const presence = new WorkerPresence(
    client,
    signer,
    name,
    KEY,
    capacity,
    LEASE_MS,
    () => chats,
    () => load,
    (error: Error) => {
      throw error;
    },
  );
  presences.push(presence);
  return presence;
}

describe('the worker registry', () => {
  it('places on the least loaded share of capacity, never on a draining worker, and on none when none is alive', async () => {
    expect(await registry().pick()).toBeUndefined();
    await worker('small', 2, 1).beat(); // half full
    await worker('big', 8, 2).beat(); // a quarter full
    expect((await registry().pick())?.name).toBe('big');
    expect((await registry().pick('big'))?.name).toBe('small');
    const big = presences[1]!;
    await big.markDraining();
    expect((await registry().pick())?.name).toBe('small');
    expect((await registry().alive()).find((state) => state.name === 'big')).toMatchObject({ draining: true, capacity: 8, load: 2 });
  });

  it('counts the chats placed since a worker last beat as its load: chats placed together spread', async () => {
    await worker('a', 4, 0).beat();
    await worker('b', 4, 1).beat();
    expect((await registry().pick())?.name).toBe('a');
    expect((await registry().pick(undefined, new Map([['a', 2]])))?.name).toBe('b');
  });

  it('a worker that stops beating is gone once its state lapses, and the leases it held lapse with it', async () => {
    const held = ['chat-1'];
    const presence = worker('w1', 4, 1, held);
    await presence.start();
    await registry().grant('chat-1', { worker: 'w1', attempt: 3, publicKey: KEY });
    // Renewed while it beats: well past one lease's length, it still holds.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));
    expect(await registry().lease('chat-1')).toEqual({ worker: 'w1', attempt: 3, publicKey: KEY });
    await presence.leave();
    presences.splice(0);
    await expect.poll(async () => registry().lease('chat-1'), { timeout: LEASE_MS * 4 }).toBeUndefined();
    expect(await registry().alive()).toEqual([]);
  });

  it('renews only a lease that names it: a chat moved to another worker stays there', async () => {
    const presence = worker('w1', 4, 1, ['chat-1']);
    await registry().grant('chat-1', { worker: 'w2', attempt: 4, publicKey: KEY });
    await client.pexpire(registryKeys.lease('chat-1'), 60_000);
    await presence.beat();
    // Renewed by w1, it would hold for one lease (600 ms) from now.
    expect(await client.pttl(registryKeys.lease('chat-1'))).toBeGreaterThan(50_000);
    await registry().grant('chat-1', { worker: 'w1', attempt: 5, publicKey: KEY });
    await client.pexpire(registryKeys.lease('chat-1'), 60_000);
    await presence.beat();
    expect(await client.pttl(registryKeys.lease('chat-1'))).toBeLessThanOrEqual(LEASE_MS);
  });

  it("ignores a worker written into Redis without the queue secret, and a lease without the bridge's own key (a worker has the secret, not that key)", async () => {
    const forger = new QueueSigner(`${SECRET}-forged`);
    await client.set(
      registryKeys.worker('evil'),
      JSON.stringify(
        forger.sign({ kind: 'worker', id: 'evil', attempt: 0 }, { name: 'evil', capacity: 99, load: 0, sessions: 0, draining: false, publicKey: KEY }, 60),
      ),
    );
    await client.sadd(registryKeys.names, 'evil');
    await client.set(
      registryKeys.lease('chat-1'),
      JSON.stringify(signer.sign({ kind: 'lease', id: 'chat-1', attempt: 1 }, { worker: 'evil', attempt: 1, publicKey: KEY }, 60)),
    );
    expect(await registry().pick()).toBeUndefined();
    expect(await registry().lease('chat-1')).toBeUndefined();
  });
});
