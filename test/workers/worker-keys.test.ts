import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BridgeKeys } from '../../src/work/workers/bridge-keys.ts';
import { keys, PREFIX } from '../../src/work/workers/redis.ts';
import { QueueSealer } from '../../src/work/workers/sealing.ts';
import { QueueSigner } from '../../src/work/workers/signing.ts';
import { WorkerKeys } from '../../src/work/workers/worker-keys.ts';
import { registryKeys, type Lease } from '../../src/work/workers/worker-registry.ts';
import { sessionKeyOf } from '../../src/work/workers/session-protocol.ts';
import { tempDir } from '../support/bridge-process.ts';
import { freePort } from '../support/free-port.ts';
import { endQueueTest, startQueueWorld, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { monitorRedis, redisContents, startRedis, type RedisMonitor, type RedisServer } from '../support/redis-server.ts';
import { OWNER, shownText } from '../support/telegram-world.ts';

// A worker holds only what was placed on it. Two workers (machines of their own) and a Redis
// reader who also holds the queue secret, as a compromised worker does: what goes through Redis
// reads as nothing, what the bridge placed on one worker opens for no other, and a bearer ends
// with its placement.
let redis: RedisServer;
let world: QueueWorld | undefined;
let reader: RedisMonitor | undefined;
const homes = new Map<string, string>();
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => (redis = await startRedis()));
afterAll(async () => {
  await redis?.stop();
  for (const cleanup of cleanups) await cleanup();
});
afterEach(async (context) => {
  reader?.close();
  reader = undefined;
  await endQueueTest(context.task.result?.state === 'fail', world, redis);
  world = undefined;
});

const CHAT = OWNER;
const say = (text: string) => world!.telegram.sendText({ chatId: CHAT, userId: OWNER, text, firstName: 'Ada' });
const answer = (pattern: RegExp, timeoutMs = 30_000) =>
  world!.telegram.waitFor(() => world!.telegram.botMessages(CHAT).find((m) => pattern.test(shownText(m))), timeoutMs);
const admission = new QueueSigner(TEST_QUEUE_SECRET);

async function twoWorkers(mcpPort: number): Promise<QueueWorld> {
  for (const name of ['w1', 'w2']) {
    if (homes.has(name)) continue;
    const home = await tempDir(`claude-home-${name}-`);
    cleanups.push(() => home.remove());
    homes.set(name, home.path);
  }
  const env = { BRIDGE_SESSION_WORKERS: 'on', BRIDGE_MCP_LISTEN: `127.0.0.1:${mcpPort}` };
  return startQueueWorld(redis, ['w1', 'w2'], env, (name) => ({ CLAUDE_CONFIG_DIR: homes.get(name)!, BRIDGE_DATA_DIR: join(homes.get(name)!, 'data') }));
}

/** Everything any client sends Redis from now on, as a reader with MONITOR sees it (closed after the test). */
async function watchRedis(): Promise<string[][]> {
  reader = await monitorRedis(redis);
  return reader.seen;
}

/** The chat's placement, as anyone reading Redis finds it (its lease, signed but not sealed). */
async function placement(): Promise<{ sessionKey: string; lease: Lease }> {
  const client = new Redis(redis.url);
  const [key] = await client.keys(`${PREFIX}:session:*:lease`);
  const raw = await client.get(key!);
  client.disconnect();
  return { sessionKey: key!.split(':')[2]!, lease: JSON.parse(JSON.parse(raw!).body) as Lease };
}

/** What the bridge's MCP endpoint answers a bearer: 401 when it does not know it. */
const mcpStatus = (port: number, bearer: string) =>
  fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  }).then((response) => response.status);

describe('a worker holds only what was placed on it', () => {
  it('a Redis reader with the queue secret finds no prompt, answer or bearer, and opens nothing placed on a worker; the other worker refuses it', async () => {
    const port = await freePort();
    world = await twoWorkers(port);
    const seen = await watchRedis();
    say('a prompt about the plum tree');
    await answer(/^echo: a prompt about the plum tree \(turn 1\)$/);
    say('/spawn --label Sealed "tools:2 say:the.quince.tree.answers"');
    const runId = / · id ([\w-]+)/.exec(shownText(await answer(/^🚀 #1 started/)))![1]!;
    await answer(/^✅ #1 Sealed/, 60_000);
    const { sessionKey, lease } = await placement();
    const bridgeKeys = await BridgeKeys.load(world.dataDir);
    const chatBearer = bridgeKeys.bearer(sessionKey, lease.attempt);
    const runBearer = bridgeKeys.bearer(sessionKeyOf(`run:${runId}`), 1);

    const everything = `${seen.map((args) => args.join(' ')).join('\n')}\n${await redisContents(redis.url)}`;
    for (const clear of ['plum tree', 'the.quince.tree.answers', chatBearer, runBearer, TEST_QUEUE_SECRET]) expect(everything).not.toContain(clear);

    // The turn's ask to the chat's worker and its grant, as the reader took them from Redis.
    const ask = seen.find(
      ([command, key, value]) => command!.toLowerCase() === 'rpush' && key === registryKeys.inbox(lease.worker) && value!.includes(sessionKey),
    )!;
    const envelope = JSON.parse(ask[2]!) as { ask: unknown; grant: string };
    // The queue secret opens none of it, as it opened the launch before; nor does a worker's key of its own.
    expect(admission.verify(envelope.ask, { kind: 'session', id: sessionKey, attempt: lease.attempt })).toMatchObject({ ok: false });
    expect(new QueueSealer(TEST_QUEUE_SECRET, 'chat-sessions').open(envelope.grant, sessionKey)).toBeUndefined();
    const another = new WorkerKeys(admission);
    const client = new Redis(redis.url);
    expect(await another.open(client, sessionKey, lease.attempt, envelope.grant)).toMatchObject({ refused: expect.stringMatching(/does not open/) });
    // The other worker, given the ask as if it were its own, refuses it and starts nothing.
    const other = lease.worker === 'w1' ? 'w2' : 'w1';
    const before = (await world.cli.invocations()).length;
    await client.multi().rpush(registryKeys.inbox(other), ask[2]!).publish(keys.control, `worker:${other}`).exec();
    client.disconnect();
    await world.workers.get(other)!.waitForLog(/refused from Redis: a session ask: its grant does not open with this worker’s key/);
    expect((await world.cli.invocations()).length).toBe(before);

    // The run's bearer ended with the run; the chat's works while its placement lasts.
    expect(await mcpStatus(port, runBearer)).toBe(401);
    expect(await mcpStatus(port, chatBearer)).not.toBe(401);
  }, 120_000);

  it("a bearer ends with its placement, and a report of the last placement is refused in the next one's stream", async () => {
    const port = await freePort();
    world = await twoWorkers(port);
    const seen = await watchRedis();
    say('first');
    await answer(/^echo: first \(turn 1\)$/);
    const first = await placement();
    const bridgeKeys = await BridgeKeys.load(world.dataDir);
    const old = bridgeKeys.bearer(first.sessionKey, first.lease.attempt);
    expect(await mcpStatus(port, old)).not.toBe(401);

    const victim = world.workers.get(first.lease.worker)!;
    victim.kill('SIGKILL');
    await victim.exited;
    say('second');
    await answer(/^Continuing on worker w[12]: worker w[12] stopped\.$/, 60_000);
    await answer(/^echo: second \(turn 2\)$/, 60_000);
    const second = await placement();
    expect(second.lease.attempt).toBeGreaterThan(first.lease.attempt);
    expect(await mcpStatus(port, old)).toBe(401);
    expect(await mcpStatus(port, bridgeKeys.bearer(second.sessionKey, second.lease.attempt))).not.toBe(401);

    // The state the first worker copied back, added again to the second placement's stream: not this placement's, refused.
    const stream = (attempt: number) => keys.events(`${first.sessionKey}-p${attempt}`);
    const reports = seen.filter(([command, key]) => command!.toLowerCase() === 'xadd' && key === stream(first.lease.attempt));
    expect(reports.length).toBeGreaterThan(0);
    const client = new Redis(redis.url);
    await client.xadd(stream(second.lease.attempt), '*', 'e', reports.at(-1)!.at(-1)!);
    client.disconnect();
    await world.bridge.waitForLog(new RegExp(`refused from Redis: a report: it claims placement ${first.lease.attempt}, not this stream's`));
  }, 120_000);
});
