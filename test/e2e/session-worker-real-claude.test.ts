import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoScript } from '../support/mock-model/index.ts';
import { addWorkers, TEST_LOCK_SECONDS, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';

// A chat's session with the real claude binary (against the mock model API) on a worker
// process, each worker with a home of its own: after its worker is killed, the chat's next
// message resumes the same session on the other worker, whose claude finds the transcript the
// bridge kept (copied back after each turn) in its own home.
let redis: RedisServer;
let real: RealCliWorld;
let world: QueueWorld;
const homes: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  real = await startRealCliWorld('claude', echoScript, {
    BRIDGE_REDIS_URL: redis.url,
    BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET,
    BRIDGE_WORKER_LOCK_SECONDS: String(TEST_LOCK_SECONDS),
    BRIDGE_SESSION_WORKERS: 'on',
  });
  for (let i = 0; i < 2; i++) homes.push(await mkdtemp(join(tmpdir(), 'claude-worker-home-')));
  world = await addWorkers(real.world, redis, ['home-1', 'home-2'], (name) => ({ HOME: homes[Number(name.slice(-1)) - 1]! }));
}, 120_000);
afterAll(async () => {
  await real?.stop();
  await redis?.stop();
  for (const home of homes) await rm(home, { recursive: true, force: true });
});

const CHAT = OWNER;
const { say, waitText } = ownerIn(() => world, CHAT, 90_000);

describe('the real claude binary as a chat’s session on a worker', () => {
  it('resumes its session on the other worker after its own is killed, with the transcript copied back', async () => {
    say('remember the word apricot');
    await waitText(/^You said: remember the word apricot/);
    const [first] = [...world.workers].filter(([, worker]) => /session \w+: a turn started here/.test(worker.log()));
    expect(first).toBeDefined();
    const [dead, deadProcess] = first!;
    const other = dead === 'home-1' ? 'home-2' : 'home-1';
    deadProcess.kill('SIGKILL');
    await deadProcess.exited;

    say('which word was it?');
    await waitText(new RegExp(`^Continuing on worker ${other}: worker ${dead} stopped\\.$`));
    await waitText(/^You said: which word was it\?/);
    expect(world.workers.get(other)!.log()).toMatch(/session \w+: a turn started here, its session restored/);
    // The other worker's claude sent the model the whole conversation: the session went on.
    const request = real.mock.modelRequests.find((r) => r.lastUserText.includes('which word was it?'))!;
    expect(JSON.stringify(request.messages)).toContain('remember the word apricot');
  }, 240_000);
});
