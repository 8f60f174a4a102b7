import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PREFIX, keys } from '../../src/work/workers/redis.ts';
import { BridgeKeys, grantContext } from '../../src/work/workers/bridge-keys.ts';
import { SealedChannel } from '../../src/work/workers/signing.ts';
import { sessionKeyOf } from '../../src/work/workers/session-protocol.ts';
import { bellFor, sessionStream } from '../../src/work/workers/session-protocol.ts';
import { registryKeys, type WorkerState } from '../../src/work/workers/worker-registry.ts';
import { START_WAIT_MS, startWorkerProcess, tempDir } from '../support/bridge-process.ts';
import { addWorkers, endQueueTest, startQueueWorld, TEST_LOCK_SECONDS, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { redisContents, startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';
import { startTelegramWorld } from '../support/telegram-world.ts';

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
/** A log line saying `what`. */
const logged = (what: string) => new RegExp(what.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
/** Everything Redis holds, keys and values, as one text; and that it is all under the bridge's prefix. */
const redisDump = async () => {
  const contents = await redisContents(redis.url);
  expect(contents.split('\n').every((line) => line.startsWith(`${PREFIX}:`))).toBe(true);
  return contents;
};
/** A run's session on the workers: its id there, and its first placement's event stream. */
const runSession = (runId: string) => {
  const id = sessionKeyOf(`run:${runId}`);
  return { id, stream: keys.events(sessionStream(id, 1)) };
};
/** Puts `envelopes` in worker w1's inbox and rings its bell, as the bridge does. */
async function intoInbox(...envelopes: unknown[]) {
  const client = new Redis(redis.url);
  await client
    .multi()
    .rpush(registryKeys.inbox('w1'), ...envelopes.map((envelope) => JSON.stringify(envelope)))
    .publish(keys.control, bellFor('w1'))
    .exec();
  client.disconnect();
}

describe('asks', () => {
  it('an ask put straight into a worker’s inbox, unsigned or with a grant the bridge did not seal, runs nothing there and is logged', async () => {
    world = await startQueueWorld(redis, ['w1']);
    const marker = join(world.workdir, 'pwned');
    const launch = { cli: 'claude', spec: {}, cwd: world.workdir, mode: 'bypass' };
    const turn = { type: 'turn', turnId: 't1', launch, prompt: `bash:touch+${marker}`, limits: {}, planning: false };
    // Sealed by a bridge of a forger's own, for w1's key as w1 said it in Redis.
    const forgerDir = await tempDir('forged-bridge-');
    opened.push({ close: () => forgerDir.remove() });
    const forger = await BridgeKeys.load(forgerDir.path);
    const client = new Redis(redis.url);
    const state = JSON.parse(JSON.parse((await client.get(registryKeys.worker('w1')))!).body) as WorkerState;
    client.disconnect();
    const grant = forger.grant(state.publicKey, grantContext('c-forged-2', 1), { key: forger.channelKey('c-forged-2', 1).toString('base64') });
    await intoInbox(
      { sessionKey: 'c-forged-1', attempt: 1, ask: turn },
      {
        sessionKey: 'c-forged-2',
        attempt: 1,
        ask: forger.channel('c-forged-2', 1).sign({ kind: 'session', id: 'c-forged-2', attempt: 1 }, turn, 60),
        grant,
      },
    );
    const worker = world.workers.get('w1')!;
    await worker.waitForLog(logged('refused from Redis: a session ask: no grant of placement 1 of session c-forged-1 came to this worker'));
    await worker.waitForLog(/refused from Redis: a session ask: (?!no grant)/);
    expect(await world.cli.invocations()).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  it('a stop or message forged for a run at work is refused by its worker, and the run goes on', async () => {
    world = await startQueueWorld(redis, ['w1']);
    say('/spawn --label Steady "tools:20 pace:100 say:unmoved"');
    const { id } = runSession(await started(1));
    await expect.poll(async () => (await world!.cli.invocations()).length, { timeout: 20_000 }).toBe(1);
    const notTheKey = new SealedChannel(randomBytes(32));
    await intoInbox(
      { sessionKey: id, attempt: 1, ask: { type: 'stop', turnId: 'any', reason: 'stopped by a forger' } },
      {
        sessionKey: id,
        attempt: 1,
        ask: notTheKey.sign({ kind: 'session', id, attempt: 1 }, { type: 'steer', turnId: 'any', text: 'forged message', id: 'm2' }, 60),
      },
    );
    const worker = world.workers.get('w1')!;
    await worker.waitForLog(logged('refused from Redis: a session ask: it is not signed'));
    await worker.waitForLog(logged('refused from Redis: a session ask: its signature does not match'));
    const ended = await reply(/^[✅❌] #1 Steady/, 30_000);
    expect(ended).toMatch(/^✅ /);
    expect(ended).not.toContain('heard:');
  });
});

describe('reports', () => {
  it('what a "worker" without its placement’s key reports on a run’s stream is refused by the bridge, and the run ends as its worker said', async () => {
    world = await startQueueWorld(redis, ['w1']);
    say('/spawn --label Faked "tools:20 pace:100 say:real"');
    const { id, stream } = runSession(await started(1));
    await expect.poll(async () => (await world!.cli.invocations()).length, { timeout: 20_000 }).toBe(1);
    const writer = new Redis(redis.url);
    const outcome = { status: 'completed', text: 'FORGED RESULT', exit: { type: 'exit', code: 0, signal: null }, durationMs: 1 };
    const forged = { kind: 'done', turnId: 'any', outcome };
    await writer.xadd(stream, '*', 'e', JSON.stringify({ seq: 1000, event: forged }));
    const notTheKey = new SealedChannel(randomBytes(32));
    await writer.xadd(
      stream,
      '*',
      'e',
      JSON.stringify(notTheKey.sign({ kind: 'event', id: sessionStream(id, 1), attempt: 1 }, { seq: 1001, event: forged }, 60)),
    );
    writer.disconnect();
    const ended = await reply(/^[✅❌] #1 Faked/, 30_000);
    expect(ended).not.toContain('FORGED RESULT');
    expect(ended).toContain('real');
    const log = world.bridge.log();
    expect(log).toMatch(logged('refused from Redis: a report: it is not signed'));
    expect(log).toMatch(logged('refused from Redis: a report: its signature does not match'));
  });

  it('a genuine report added to the stream again is refused as a replay, and the run ends as its worker said', async () => {
    world = await startQueueWorld(redis, ['w1']);
    say('/spawn --label Twice "tools:20 pace:100 say:once"');
    const { stream } = runSession(await started(1));
    const client = new Redis(redis.url);
    await expect.poll(async () => (await client.xrange(stream, '-', '+')).length, { timeout: 20_000 }).toBeGreaterThan(1);
    const [first] = await client.xrange(stream, '-', '+');
    await client.xadd(stream, '*', ...first![1]);
    client.disconnect();
    await world.bridge.waitForLog(logged('refused from Redis: a report: it was taken before (replayed, number 1)'));
    expect(await reply(/^✅ #1 Twice/, 30_000)).toContain('once');
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
    expect(dump).toContain(runSession(runId).id);
    const bearer = (await BridgeKeys.load(world.dataDir)).bearer(runSession(runId).id, 1);
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
    await worker.waitForLog(/taking work from/, START_WAIT_MS);
    say('/spawn --agent librarian "say:never"');
    const ended = await reply(/^❌ #1 librarian/, 30_000);
    expect(ended).toContain(`it names the MCP servers docs, wiki, which worker bare does not have in ${join(own.path, 'mcp-servers.json')}`);
    expect(await world.cli.invocations()).toEqual([]);
  });
});
