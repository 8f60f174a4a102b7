import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PREFIX, QUEUE_NAME, keys } from '../../src/work/queue/redis.ts';
import { QueueSigner } from '../../src/work/queue/signing.ts';
import { BridgeKeys } from '../../src/work/queue/bridge-keys.ts';
import { startWorkerProcess, tempDir } from '../support/bridge-process.ts';
import { addWorkers, endQueueTest, startQueueWorld, TEST_LOCK_SECONDS, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { redisContents, startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';
import { startTelegramWorld } from '../support/telegram-world.ts';
import { telegramChat } from '../../src/transports/telegram/id.ts';

// What goes through Redis between the bridge and its workers is signed with
// BRIDGE_QUEUE_SECRET and holds no credential: whoever can write to Redis, without the
// secret, runs nothing on a worker and makes the bridge believe nothing.
let redis: RedisServer;
let world: QueueWorld | undefined;
const opened: { close(): Promise<unknown> }[] = [];
beforeAll(async () => (redis = await startRedis()));
afterAll(() => redis?.stop());
afterEach(async (context) => {
  await endQueueTest(context.task.result?.state === 'fail', world, redis);
  world = undefined;
  for (const closable of opened.splice(0)) await closable.close();
});

const CHAT = OWNER;
const { say } = ownerIn(() => world!, CHAT);
const texts = () => world!.telegram.botMessages(CHAT).map((m) => m.text ?? '');
const reply = (pattern: RegExp, timeoutMs = 20_000) => world!.telegram.waitFor(() => texts().find((t) => pattern.test(t)), timeoutMs);
const started = async (number: number) => / · id ([\w-]+)/.exec(await reply(new RegExp(`^🚀 #${number} started`)))![1]!;
const signer = new QueueSigner(TEST_QUEUE_SECRET);
/** A log line saying `what` about the run (pretty or JSON: the message, then the run). */
const logged = (what: string, runId: string) => new RegExp(`${what.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*"run":"${runId}"`);
/** The job the bridge queued for a run: added as the run starts, which the chat may hear of first. */
async function queuedJob(runId: string) {
  const runs = queue();
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 25))) {
    const job = await runs.getJob(runId);
    if (job) return job;
  }
  throw new Error(`the bridge queued no job for run ${runId}`);
}
const queue = () => {
  const made = new Queue(QUEUE_NAME, { connection: { url: redis.url }, prefix: PREFIX });
  opened.push(made);
  return made;
};
/** Everything Redis holds, keys and values, as one text; and that it is all under the bridge's prefix. */
const redisDump = async () => {
  const contents = await redisContents(redis.url);
  expect(contents.split('\n').every((line) => line.startsWith(`${PREFIX}:`))).toBe(true);
  return contents;
};

/** A run as the bridge would queue it, in this world's working directory. */
const record = (runId: string, task: string) => ({
  runId,
  number: 1,
  cli: 'claude',
  cwd: world!.workdir,
  task,
  depth: 0,
  timeoutSeconds: 60,
  chat: telegramChat(CHAT),
  requesterKey: `telegram:${CHAT}`,
  requester: { kind: 'user', userId: String(OWNER) },
  createdAt: Date.now(),
});

describe('jobs', () => {
  it('a job added straight to the queue, unsigned or altered, runs nothing on the worker and is logged', async () => {
    world = await startQueueWorld(redis, ['w1']);
    const marker = join(world.workdir, 'pwned');
    const evil = { x: { command: 'sh', args: ['-c', `touch ${marker}`] } };
    // As a job looked before it was signed, and with the MCP servers a forger wants.
    await queue().add('run', { run: { ...record('forged-1', 'say:forged'), mcpServers: evil }, toolTimeoutMs: 60_000 }, { jobId: 'forged-1' });
    // A job the bridge signed, its body changed to bring a server of its own.
    const genuine = signer.sign({ kind: 'job', runId: 'forged-2', attempt: 1 }, { run: record('forged-2', 'say:fine'), toolTimeoutMs: 60_000 }, 3600);
    const altered = {
      ...genuine,
      body: JSON.stringify({ run: { ...record('forged-2', 'say:fine'), mcpServers: evil }, mcpServers: ['x'], toolTimeoutMs: 60_000 }),
    };
    await queue().add('run', altered, { jobId: 'forged-2' });

    const worker = world.workers.get('w1')!;
    await worker.waitForLog(logged('refused a job from Redis, nothing run: it is not signed', 'forged-1'));
    await worker.waitForLog(logged('refused a job from Redis, nothing run: its signature does not match', 'forged-2'));
    for (const id of ['forged-1', 'forged-2']) {
      await expect.poll(async () => (await queue().getJob(id))?.failedReason).toMatch(/^refused by worker w1: /);
    }
    expect(await world.cli.invocations()).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  it('a job queued unsigned before the upgrade is announced as interrupted, not run, and removed with the secret it held', async () => {
    world = await startQueueWorld(redis, []);
    say('/spawn --label Old "say:never-run"');
    const runId = await started(1);
    // What an older bridge queued: the record and the run's MCP secret, unsigned.
    const job = await queuedJob(runId);
    const legacySecret = 'legacy-mcp-secret-0123456789abcdef';
    await job.updateData({
      run: record(runId, 'say:never-run'),
      mcp: { url: 'http://127.0.0.1:1/mcp', serverName: 'bridge', token: legacySecret },
      toolTimeoutMs: 60_000,
    });
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    const ended = await reply(/^❌ #1 Old/, 30_000);
    expect(ended).toMatch(/not signed/);
    expect(world.bridge.log()).toMatch(logged('refused from Redis: its job: it is not signed', runId));
    // Removed from the queue: no worker can take it.
    expect(await queue().getJob(runId)).toBeUndefined();
    expect(await world.cli.invocations()).toEqual([]);
    expect(await redisDump()).not.toContain(legacySecret);
  });
});

describe('reports', () => {
  it('what a "worker" without the secret reports is refused by the bridge: its events, its worktree, its ending', async () => {
    world = await startQueueWorld(redis, []);
    const fake = new Worker(
      QUEUE_NAME,
      async (job) => {
        const writer = new Redis(redis.url);
        await writer.xadd(keys.events(job.id!), '*', 'e', JSON.stringify({ kind: 'lines', lines: ['{"type":"forged"}'] }));
        await writer.xadd(keys.events(job.id!), '*', 'e', JSON.stringify({ kind: 'worktree', worktree: { path: '/etc', branch: 'x' } }));
        writer.disconnect();
        return { outcome: { status: 'completed', text: 'FORGED RESULT', exit: { type: 'exit', code: 0, signal: null }, durationMs: 1 }, steps: 1 };
      },
      { connection: { url: redis.url, maxRetriesPerRequest: null }, prefix: PREFIX, lockDuration: TEST_LOCK_SECONDS * 1000 },
    );
    opened.push(fake);
    say('/spawn --label Faked "say:real"');
    const runId = await started(1);
    const ended = await reply(/^❌ #1 Faked/, 30_000);
    expect(ended).not.toContain('FORGED RESULT');
    expect(ended).toMatch(/interrupted/);
    const log = world.bridge.log();
    expect(log).toMatch(logged('refused from Redis: a report: it is not signed', runId));
    expect(log).toMatch(logged('refused from Redis: its ending: it is not signed', runId));
    say('/subagents info 1');
    expect(await reply(/^runId: /m)).not.toContain('/etc');
  });

  it('a genuine report added to the stream again is refused as a replay, and the run ends as its worker said', async () => {
    world = await startQueueWorld(redis, ['w1']);
    say('/spawn --label Twice "tools:20 pace:100 say:once"');
    const runId = await started(1);
    const client = new Redis(redis.url);
    await expect.poll(async () => (await client.xrange(keys.events(runId), '-', '+')).length, { timeout: 20_000 }).toBeGreaterThan(1);
    // The first report (the worker's claim of the run comes before it).
    const first = (await client.xrange(keys.events(runId), '-', '+')).find(([, fields]) => fields[0] === 'e');
    await client.xadd(keys.events(runId), '*', ...first![1]);
    client.disconnect();
    await world.bridge.waitForLog(logged('refused from Redis: a report: it was taken before (replayed, number 1)', runId));
    expect(await reply(/^✅ #1 Twice/, 30_000)).toContain('once');
  });
});

describe('control', () => {
  it('a stop or message forged in the run’s keys is refused by its worker, and the run goes on', async () => {
    world = await startQueueWorld(redis, ['w1']);
    say('/spawn --label Steady "tools:20 pace:100 say:unmoved"');
    const runId = await started(1);
    const forger = new QueueSigner('another-secret-of-at-least-32-characters');
    const client = new Redis(redis.url);
    await client
      .multi()
      .rpush(keys.inbox(runId), JSON.stringify({ id: 'm1', text: 'unsigned message' }))
      .rpush(keys.inbox(runId), JSON.stringify(forger.sign({ kind: 'message', runId, attempt: 1 }, { id: 'm2', text: 'forged message' }, 60)))
      .set(keys.stop(runId), 'stopped by a forger')
      .publish(keys.control, runId)
      .exec();
    client.disconnect();
    const worker = world.workers.get('w1')!;
    await worker.waitForLog(logged('refused from Redis: a stop: it is not signed', runId));
    await worker.waitForLog(logged('refused from Redis: a message: it is not signed', runId));
    await worker.waitForLog(logged('refused from Redis: a message: its signature does not match', runId));
    const ended = await reply(/^[✅❌] #1 Steady/, 30_000);
    expect(ended).toMatch(/^✅ /);
    expect(ended).not.toContain('heard:');
  });
});

describe('secrets', () => {
  const useLibrarian = async (dataDir: string, workdir: string) => {
    const env = { DOCS_TOKEN: 'operator-docs-env-value-0123456789' };
    await writeFile(
      join(dataDir, 'mcp-servers.json'),
      JSON.stringify({
        mcpServers: {
          docs: { command: 'docs-server', env },
          wiki: { type: 'http', url: 'http://127.0.0.1:1/', headers: { Authorization: 'Bearer operator-wiki-header-0123456789' } },
        },
      }),
    );
    const dir = join(workdir, '.bridge', 'agents', 'librarian');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'agent.json'), JSON.stringify({ description: 'Finds docs', mcpServers: ['docs', 'wiki'] }));
    await writeFile(join(dir, 'prompt.md'), 'You look things up.\n');
    // A repository's own agents count once the owner trusts it.
    say('/trust on');
    await reply(/^🛡 Trusted/);
  };

  it("after a run, Redis holds neither its MCP secret nor the operator's MCP env and headers; the worker takes them from its own file", async () => {
    world = await startQueueWorld(redis, ['w1']);
    await useLibrarian(world.dataDir, world.workdir);
    say('/spawn --agent librarian "mcp-check say:looked-up"');
    const runId = await started(1);
    const ended = await reply(/^✅ #1 librarian/, 30_000);
    expect(ended).toContain('mcp: accepted');
    const run = (await world.cli.invocations()).find((c) => c.prompt.includes('looked-up'))!;
    expect(run.mcpServers).toEqual(['docs', 'wiki', 'bridge']);
    // Its CLI's own agents get the servers whole, from the worker's file.
    expect(run.agents!.librarian!.mcpServers).toEqual([
      { docs: { command: 'docs-server', env: { DOCS_TOKEN: 'operator-docs-env-value-0123456789' } } },
      { wiki: { type: 'http', url: 'http://127.0.0.1:1/', headers: { Authorization: 'Bearer operator-wiki-header-0123456789' } } },
    ]);
    const dump = await redisDump();
    expect(dump).toContain(runId);
    const bearer = (await BridgeKeys.load(world.dataDir)).bearer('run', runId, 1);
    for (const secret of [bearer, 'operator-docs-env-value-0123456789', 'operator-wiki-header-0123456789']) expect(dump).not.toContain(secret);
    // Nor does the chat: the run's info names the servers only.
    say('/subagents info 1');
    const info = await reply(/^mcpServers: /m);
    expect(info).toMatch(/^mcpServers: docs, wiki$/m);
    for (const secret of ['operator-docs-env-value-0123456789', 'operator-wiki-header-0123456789']) expect(info).not.toContain(secret);
  });

  it('a run naming an MCP server its worker lacks fails, saying which and where', async () => {
    const base = await startTelegramWorld({ BRIDGE_REDIS_URL: redis.url, BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET });
    world = await addWorkers(base, redis, []);
    await useLibrarian(world.dataDir, world.workdir);
    // A worker with a data directory of its own, and no mcp-servers.json in it.
    const own = await tempDir('worker-data-');
    const { TELEGRAM_BOT_TOKEN: _token, TELEGRAM_API_ROOT: _root, ...workerEnv } = world.env;
    const worker = startWorkerProcess({
      ...workerEnv,
      BRIDGE_DATA_DIR: own.path,
      BRIDGE_WORKER_NAME: 'bare',
      BRIDGE_WORKER_LOCK_SECONDS: String(TEST_LOCK_SECONDS),
    });
    world.workers.set('bare', worker);
    opened.push({ close: () => own.remove() });
    await worker.waitForLog(/taking runs from/);
    say('/spawn --agent librarian "say:never"');
    const ended = await reply(/^❌ #1 librarian/, 30_000);
    expect(ended).toContain(`it names the MCP servers docs, wiki, which worker bare does not have in ${join(own.path, 'mcp-servers.json')}`);
    expect(await world.cli.invocations()).toEqual([]);
  });
});
