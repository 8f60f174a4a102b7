import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellToolCall, toolThenText } from '../support/mock-model/index.ts';
import { addWorkers, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';

// A subagent run through the queue and executed by a worker process with the real claude
// binary (against the mock model API), announced by the bridge.
let redis: RedisServer;
let real: RealCliWorld;
let world: QueueWorld;

beforeAll(async () => {
  redis = await startRedis();
  real = await startRealCliWorld('claude', undefined, { BRIDGE_REDIS_URL: redis.url, BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET });
  world = await addWorkers(real.world, redis, ['remote-1']);
});
// The world's stop stops its workers too.
afterAll(async () => {
  await real?.stop();
  await redis?.stop();
});

const CHAT = OWNER;
const { say, waitText } = ownerIn(() => world, CHAT, 60_000);

describe('the real claude binary on a worker', () => {
  it('runs a /spawn with a tool call there and the bridge announces its result', async () => {
    real.mock.reset(
      toolThenText({ call: shellToolCall('claude', 'echo ran-on-the-worker'), finalText: (results) => `The worker said **${results[0]!.content.trim()}**.` }),
    );
    say('/spawn --label Remote "run echo on the worker"');
    const done = await waitText(/^✅ #1 Remote/);
    expect(done.text).toContain('The worker said ran-on-the-worker.');
    const request = real.mock.modelRequests.find((r) => r.lastUserText.includes('run echo on the worker'))!;
    expect(request.system).toContain('You are a subagent');
    // The bridge's tools reached the worker's claude: the secret both derived, from no job, was taken.
    expect(request.toolNames).toContain('mcp__bridge__send_file');
    say('/subagents info 1');
    await waitText(/^worker: remote-1$/m);
  });
});
