import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { alive } from '../support/fake-cli.ts';
import { parseLogLine, startWorkerProcess, tempDir } from '../support/bridge-process.ts';
import { keys } from '../../src/work/workers/redis.ts';
import { BridgeKeys } from '../../src/work/workers/bridge-keys.ts';
import { sessionKeyOf } from '../../src/work/workers/session-protocol.ts';
import { bellFor, type SessionAsk } from '../../src/work/workers/session-protocol.ts';
import { registryKeys, type WorkerState } from '../../src/work/workers/worker-registry.ts';
import { endQueueTest, startQueueWorld, TEST_LOCK_SECONDS, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { redisContents, startRedis, type RedisServer } from '../support/redis-server.ts';
import { freePort } from '../support/free-port.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';

// Subagents through a BullMQ queue on a real redis-server, executed by worker processes: the
// same chat surface as without, and the faults a queue brings (dead workers, a dead bridge,
// Redis restarting).
let redis: RedisServer;
let world: QueueWorld | undefined;
beforeAll(async () => (redis = await startRedis()));
afterAll(() => redis?.stop());
afterEach(async (context) => {
  await endQueueTest(context.task.result?.state === 'fail', world, redis);
  world = undefined;
});

const CHAT = OWNER; // a private chat: Telegram lets the bot answer it once a second, not 20 a minute
const { say } = ownerIn(() => world!, CHAT);
const texts = () => world!.telegram.botMessages(CHAT).map((m) => m.text ?? '');
const announcements = () => texts().filter((t) => /^[✅❌] /.test(t));
const reply = (pattern: RegExp, timeoutMs = 20_000) => world!.telegram.waitFor(() => texts().find((t) => pattern.test(t)), timeoutMs);
const invocation = async (prompt: string) => {
  await expect.poll(async () => (await world!.cli.invocations()).find((c) => c.prompt.includes(prompt)), { timeout: 20_000 }).toBeTruthy();
  return (await world!.cli.invocations()).find((c) => c.prompt.includes(prompt))!;
};

describe('subagents on workers', () => {
  it('runs a /spawn on a worker: announced once, its log and info in the chat, no secret of the bridge on the worker', async () => {
    world = await startQueueWorld(redis, ['w1', 'w2']);
    say('/spawn --label Remote "tools:2 say:from-a-worker"');
    await reply(/^✅ #1 Remote/);
    expect(announcements()).toHaveLength(1);
    expect(announcements()[0]).toContain('from-a-worker');
    say('/subagents info 1');
    const info = await reply(/^worker: /m);
    expect(info).toMatch(/^worker: w[12]$/m);
    expect(info).toMatch(/^steps: 2$/m);
    say('/subagents log 1');
    await reply(/Bash/);

    const [cli] = await world.cli.invocations();
    expect(cli!.envNames).not.toContain('TELEGRAM_BOT_TOKEN');
    expect(cli!.envNames).not.toContain('BRIDGE_REDIS_URL');
    // Redis holds the run, sealed: neither its task nor what it said reads there, and never the bot's token.
    const contents = await redisContents(redis.url);
    expect(contents).toContain(sessionKeyOf(`run:${/ · id ([\w-]+)/.exec(texts().find((t) => t.startsWith('🚀 #1'))!)![1]!}`));
    expect(contents).not.toContain('from-a-worker');
    expect(contents).not.toContain(world.env.TELEGRAM_BOT_TOKEN!);
  });

  it('a run on a worker is priced there as it works, stopped at its budget, and announced once as stopped for cost', async () => {
    world = await startQueueWorld(redis, ['w1']);
    // The shipped price of claude-haiku-4-5 ($5 per million output tokens): each of the fake's model calls costs about $0.01.
    say('/spawn --label Capped --model claude-haiku-4-5 --budget 0.05 "tools:40 pace:200 msg-tokens:2000 say:never-reached"');
    const announced = await reply(/^❌ #1 Capped/, 30_000);
    expect(announced).toMatch(/Stopped for cost: it had cost \$0\.0[5-7], reaching its budget of \$0\.05/);
    expect(announced).not.toContain('never-reached');
    // Its cost is the chat's, as the worker priced it; and a round trip later there is still one announcement.
    say('/usage');
    expect(await reply(/^💰 Usage of this chat/)).toMatch(/Today \(\S+ UTC\): \$0\.0[5-7] · 1 run/);
    expect(announcements()).toHaveLength(1);
  });

  it('/subagents stop reaches the worker and stops the run’s process group there', async () => {
    world = await startQueueWorld(redis, ['w1']);
    say('/spawn --label Stuck "grandchild hang"');
    const cli = await invocation('grandchild hang');
    say('/subagents stop 1');
    await reply(/^❌ #1 Stuck/);
    expect(announcements()[0]).toContain('stopped by Ada');
    await expect.poll(() => alive(cli.pid)).toBe(false);
  });

  it('what is asked of a run while its worker is cut off from Redis still reaches it: a message, a stop', async () => {
    world = await startQueueWorld(redis, ['w1']);
    // As the bridge seals them, in the run's placement's channel (its keys are in its data directory).
    const bridgeKeys = await BridgeKeys.load(world.dataDir);
    const client = new Redis(redis.url);
    // What the bridge does to ask, in one transaction with cutting off every subscriber: the bell reaches nobody, and only the inbox is left.
    const askWhileCutOff = async (runId: string, ask: (turnId: string) => SessionAsk) => {
      const sessionKey = sessionKeyOf(`run:${runId}`);
      // The turn at work, as the worker says it (what the bridge sent it with).
      let turnId: string | undefined;
      await expect
        .poll(async () => {
          const state = JSON.parse(JSON.parse((await client.get(registryKeys.worker('w1')))!).body) as WorkerState;
          return (turnId = state.working?.[sessionKey]);
        })
        .toBeTruthy();
      const envelope = {
        sessionKey,
        attempt: 1,
        ask: bridgeKeys.channel(sessionKey, 1).sign({ kind: 'session', id: sessionKey, attempt: 1 }, ask(turnId!), 60),
      };
      await client
        .multi()
        .client('KILL', 'TYPE', 'pubsub')
        .rpush(registryKeys.inbox('w1'), JSON.stringify(envelope))
        .publish(keys.control, bellFor('w1'))
        .exec();
    };
    const started = async (number: number) => / · id ([\w-]+)/.exec(await reply(new RegExp(`^🚀 #${number} started`)))![1]!;

    try {
      say('/spawn --label Told "tools:40 pace:100 say:worked until-heard"');
      await invocation('say:worked');
      const told = await started(1);
      await askWhileCutOff(told, (turnId) => ({ type: 'steer', turnId, text: 'mind the docs', id: 'm1' }));
      await reply(/^✅ #1 Told/, 30_000);
      expect(announcements()[0]).toContain('worked\nheard: mind the docs');

      say('/spawn --label Stuck "hang"');
      const cli = await invocation('hang');
      const stuck = await started(2);
      await askWhileCutOff(stuck, (turnId) => ({ type: 'stop', turnId, reason: 'stopped by the test' }));
      await reply(/^❌ #2 Stuck/);
      expect(announcements()[1]).toContain('Stopped');
      await expect.poll(() => alive(cli.pid)).toBe(false);
    } finally {
      client.disconnect();
    }
  });

  it('/subagents send reaches the run on its worker, whose CLI takes it into the turn at work', async () => {
    world = await startQueueWorld(redis, ['w1']);
    say('/spawn --label Remote "tools:100 pace:100 say:worked until-heard"');
    await invocation('tools:100 pace:100');
    say('/subagents send 1 mind the docs');
    await reply(/^✉️ #1 Remote gets it on its worker: while it works where its CLI reads messages, else as its next turn; its reply is announced here\.$/);
    await reply(/^✅ #1 Remote/, 60_000);
    expect(announcements()[0]).toContain('worked\nheard: mind the docs');
    // The worker's CLI took it in: no second process for it.
    expect((await world.cli.invocations()).map((call) => call.prompt)).toEqual([expect.stringContaining('tools:100 pace:100')]);
  });

  it('keeps the per-chat limit across workers: past it, runs wait their turn', async () => {
    world = await startQueueWorld(redis, ['w1', 'w2'], { SUBAGENTS_MAX_CONCURRENT: '1' });
    say('/spawn --label First "sleep:1 say:first"');
    await reply(/^🚀 #1/);
    say('/spawn --label Second "say:second"');
    await reply(/^⏳ #2 queued/);
    await world.telegram.waitFor(() => announcements().length === 2, 30_000);
    expect(announcements().map((t) => t.split('\n')[0])).toEqual([expect.stringMatching(/^✅ #1 First/), expect.stringMatching(/^✅ #2 Second/)]);
  });

  it('a worker SIGKILLed mid-run: the run goes on on the other worker, its chat told in one line, and is announced once', async () => {
    world = await startQueueWorld(redis, ['w1', 'w2']);
    say('/spawn --label Doomed "sleep-once:60 say:outlived-its-worker"');
    const cli = await invocation('outlived-its-worker');
    say('/subagents info 1');
    const info = await reply(/^worker: w[12]$/m);
    const name = /^worker: (w[12])$/m.exec(info)![1]!;
    world.workers.get(name)!.kill('SIGKILL');
    await world.workers.get(name)!.exited;
    const other = name === 'w1' ? 'w2' : 'w1';
    await reply(new RegExp(`^#1 Doomed continues on worker ${other}: worker ${name} stopped\\.$`), 40_000);
    await reply(/^✅ #1 Doomed/, 40_000);
    expect(announcements()[0]).toContain('outlived-its-worker');
    // Its CLI outlived its worker; a worker started again on this machine stops it.
    expect(alive(cli.pid)).toBe(true);
    await world.startWorker(name);
    await expect.poll(() => alive(cli.pid), { timeout: 10_000 }).toBe(false);
    say('/subagents info 1');
    await reply(new RegExp(`^worker: ${other}$`, 'm'));
    expect(announcements()).toHaveLength(1);
  });

  it('the only worker SIGKILLed mid-run: the chat is told once that the run waits for a worker, and a worker started again runs it, once', async () => {
    world = await startQueueWorld(redis, ['w1']);
    say('/spawn --label Orphan "sleep-once:60 say:waited-for-a-worker"');
    const cli = await invocation('waited-for-a-worker');
    await reply(/^🚀 #1 started: Orphan/);
    world.workers.get('w1')!.kill('SIGKILL');
    await world.workers.get('w1')!.exited;
    // Noticed when its worker's lease lapses.
    await reply(/^No worker is connected to run #1 Orphan: it waits until one is\.$/, TEST_LOCK_SECONDS * 4000 + 10_000);
    say('/status');
    await reply(/0 workers connected, 0 running, 1 waiting for a worker/);
    // A worker started again stops the CLI its predecessor left, and runs the run.
    await world.startWorker('w1');
    await expect.poll(() => alive(cli.pid), { timeout: 10_000 }).toBe(false);
    await reply(/^✅ #1 Orphan/, 30_000);
    expect(announcements()).toHaveLength(1);
    expect(texts().filter((text) => text.startsWith('No worker is connected'))).toHaveLength(1);
  });

  it('the bridge SIGKILLed mid-run: the worker finishes, and the result is announced after the restart, once', async () => {
    world = await startQueueWorld(redis, ['w1']);
    say('/spawn --label Survivor "tools:3 sleep:2 say:outlived-the-bridge"');
    await invocation('outlived-the-bridge');
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    await reply(/^✅ #1 Survivor/, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(announcements()).toHaveLength(1);
    expect(announcements()[0]).toContain('outlived-the-bridge');
    say('/subagents log 1');
    await reply(/Bash/); // the lines sent while the bridge was down reached its log
  });

  it("a run that outlived a bridge restart keeps the bridge's tools: its secret is known again", async () => {
    // A fixed address, as runs on workers need: the restarted bridge listens where the CLI calls.
    world = await startQueueWorld(redis, ['w1'], { BRIDGE_MCP_LISTEN: `127.0.0.1:${await freePort()}` });
    say('/spawn --label Tooled "wait-for:restarted mcp-check"');
    await invocation('mcp-check');
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    // Only now does the CLI call the bridge's tools: the restarted one must know its secret.
    await writeFile(join(world.workdir, 'restarted'), '');
    expect(await reply(/^✅ #1 Tooled/, 40_000)).toContain('mcp: accepted');
  });

  it('Redis restarted mid-run loses nothing; Redis down is said in /status and refuses /spawn clearly', async () => {
    world = await startQueueWorld(redis, ['w1']);
    say('/spawn --label Steady "sleep:3 say:through-a-redis-restart"');
    await invocation('through-a-redis-restart');
    await redis.restart();
    await reply(/^✅ #1 Steady/, 30_000);
    expect(announcements()[0]).toContain('through-a-redis-restart');

    const count = (pattern: RegExp) => world!.bridge.log().match(pattern)?.length ?? 0;
    const reconnects = () => count(/reachable again/g);
    const [before, outages] = [reconnects(), count(/is unreachable: runs on workers go on/g)];
    await redis.halt();
    try {
      await expect.poll(() => count(/is unreachable: runs on workers go on/g), { timeout: 20_000 }).toBe(outages + 1);
      say('/status');
      await reply(/unreachable/);
      say('/spawn "say:never"');
      await reply(/Subagents cannot start now: the queue's Redis .* is unreachable/);
    } finally {
      await redis.start();
    }
    await expect.poll(reconnects, { timeout: 20_000 }).toBe(before + 1);
    say('/spawn --label Back "say:back-again"');
    await reply(/^✅ #\d+ Back/, 30_000);
    expect((await world.cli.invocations()).some((c) => c.prompt.includes('never'))).toBe(false);
  });

  it('Redis down at start: the bridge serves and the worker waits, both saying so a line per attempt, and runs start once it is up', async () => {
    await redis.halt();
    try {
      world = await startQueueWorld(redis, []);
      await world.bridge.waitForLog(/the queue's Redis \(redis:\/\/127\.0\.0\.1:\d+\) is unreachable: runs on workers go on/);
      await world.bridge.waitForLog(/the queue's Redis \(.*\) did not answer \(.*ECONNREFUSED.*\); trying again in 0\.5 s \(attempt 1\)/);
      await world.bridge.waitForLog(/trying again in 1 s \(attempt 2\)/);
      const { TELEGRAM_BOT_TOKEN: _token, TELEGRAM_API_ROOT: _root, ...workerEnv } = world.env;
      const worker = startWorkerProcess({ ...workerEnv, BRIDGE_WORKER_NAME: 'early', BRIDGE_WORKER_LOCK_SECONDS: String(TEST_LOCK_SECONDS) });
      world.workers.set('early', worker);
      await worker.waitForLog(/Redis \(.*\) did not answer \(.*ECONNREFUSED.*\); trying again in 0\.5 s \(attempt 1\)/);
      say('/spawn "say:not-yet"');
      await reply(/Subagents cannot start now: the queue's Redis .* is unreachable/);
    } finally {
      await redis.start();
    }
    await world.bridge.waitForLog(/the queue's Redis \(.*\) is reachable$/m);
    await world.workers.get('early')!.waitForLog(/worker early taking work from/);
    say('/spawn --label Late "say:redis-came-up"');
    await reply(/^✅ #\d+ Late/, 30_000);
    expect(world.bridge.stderr()).not.toMatch(/^\s+at /m);
  });
});

describe('worker start-up', () => {
  async function startWith(env: Record<string, string>) {
    const data = await tempDir('worker-data-');
    const worker = startWorkerProcess({ BRIDGE_DATA_DIR: data.path, ...env });
    const exit = await worker.exited;
    await data.remove();
    return { exit, stderr: worker.stderr().trim() };
  }

  it('exits non-zero with one clear line without BRIDGE_REDIS_URL', async () => {
    const { exit, stderr } = await startWith({ BRIDGE_REDIS_URL: '' });
    expect(exit.code).toBe(78); // EX_CONFIG: fix the setup, do not restart
    expect(stderr).toMatch(/^jsonl-bridge worker: BRIDGE_REDIS_URL is not set: set it to the Redis the bridge queues runs on/);
  });

  it('exits non-zero with one clear line without BRIDGE_QUEUE_SECRET, or with one too short', async () => {
    const missing = await startWith({ BRIDGE_REDIS_URL: redis.url, BRIDGE_QUEUE_SECRET: '' });
    expect(missing.exit.code).toBe(78);
    expect(missing.stderr).toBe(
      'jsonl-bridge worker: BRIDGE_QUEUE_SECRET is not set: BRIDGE_REDIS_URL needs it, the same on the bridge and every worker, at least 32 characters (openssl rand -base64 33)',
    );
    const short = await startWith({ BRIDGE_REDIS_URL: redis.url, BRIDGE_QUEUE_SECRET: 'too-short' });
    expect(short.exit.code).toBe(78);
    expect(short.stderr).toBe('jsonl-bridge worker: BRIDGE_QUEUE_SECRET: expected at least 32 characters (openssl rand -base64 33), got 9');
  });

  it('exits non-zero when Redis refuses its password, without showing the password', async () => {
    const { exit, stderr } = await startWith({ BRIDGE_REDIS_URL: `redis://:wrong-password@127.0.0.1:${redis.port}`, BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET });
    expect(exit.code).toBe(78); // EX_CONFIG: fix the setup, do not restart
    const lines = stderr.split('\n').map(parseLogLine);
    expect(lines.at(-1)).toMatchObject({ level: 'fatal', msg: expect.stringMatching(/^Redis \(redis:\/\/127\.0\.0\.1:\d+\) refused this worker: WRONGPASS/) });
    expect(stderr).not.toContain('wrong-password');
  });
});
