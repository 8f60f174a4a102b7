import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentIds, AGENT_USER, cannotSwitchUser, giveToAgent, sharedRepo } from '../support/agent-user.ts';
import { listen, type RunningServer } from '../support/loopback-server.ts';
import { addWorkers, endQueueTest, TEST_LOCK_SECONDS, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, ownerIn, startTelegramWorld } from '../support/telegram-world.ts';
import { cannotWall, escapeIn, outsideAddress } from './walls-support.ts';

// A chat's own session on a worker (BRIDGE_SESSION_WORKERS=on), in the worker's walls: the
// real redis-server, the bridge, a worker with BRIDGE_SANDBOX=bwrap, and the fake CLI trying
// to get out of the chat's session there.
let redis: RedisServer;
let world: QueueWorld | undefined;
let project: { path: string; remove(): Promise<void> } | undefined;
let servers: RunningServer[] = [];
const cannot = cannotSwitchUser() ?? cannotWall();
beforeAll(async () => {
  if (!cannot) redis = await startRedis();
});
afterAll(() => redis?.stop());
afterEach(async (context) => {
  await endQueueTest(context.task.result?.state === 'fail', world, redis);
  await Promise.all(servers.map((server) => server.close()));
  await project?.remove();
  world = project = undefined;
  servers = [];
});

const CHAT = OWNER;
const { say, waitText: answer } = ownerIn(() => world!, CHAT);
const HOMES = `/home/${AGENT_USER}/.jsonl-bridge/homes`;

describe.skipIf(cannot)(`a chat's session on a worker with BRIDGE_SANDBOX=bwrap (${cannot ?? AGENT_USER})`, () => {
  it('runs in the worker’s walls with the chat’s own /net hosts; a host they refuse is in the bridge’s audit trail, as from its own walls', async () => {
    const address = outsideAddress()!;
    const allowed = await listen((_req, res) => res.end('ok'), { host: address });
    servers.push(allowed);
    const ids = agentIds()!;
    project = await sharedRepo(ids.gid);
    const base = await startTelegramWorld({
      BRIDGE_REDIS_URL: redis.url,
      BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET,
      BRIDGE_WORKER_LOCK_SECONDS: String(TEST_LOCK_SECONDS),
      BRIDGE_SESSION_WORKERS: 'on',
      BRIDGE_AGENT_USER: AGENT_USER,
      BRIDGE_WORKDIR: project.path,
      // This machine's address is internal: the operator opens it (on the worker too), for /net to allow.
      BRIDGE_SANDBOX_INTERNAL: address,
      FAKE_ESCAPE_URLS: [`${allowed.origin}/`, 'http://example.com/'].join(','),
      FAKE_ESCAPE_READ: HOMES,
    });
    world = await addWorkers(base, redis, ['w1'], () => ({ BRIDGE_SANDBOX: 'bwrap' }));
    await giveToAgent(world.cli.dir, ids);

    say(`/net allow ${new URL(allowed.origin).host}`);
    await answer(/may now reach/);
    say('escape');
    const seen = escapeIn((await answer(/^\{"keys"/, 60_000)).text!);
    expect(world.workers.get('w1')!.log()).toMatch(/session \w+: a turn started here/);
    expect(seen.read[HOMES]).toMatch(/^refused: ENOENT/);
    expect(seen.pids).toBeLessThan(10);
    expect(seen.proxied[`${allowed.origin}/`]).toBe('ok: status 200');
    expect(seen.proxied['http://example.com/']).toBe('refused: status 403');
    const audit = () => readFile(join(world!.dataDir, 'audit.jsonl'), 'utf8').catch(() => '');
    await expect.poll(audit).toMatch(/"event":"blocked","chat":"[^"]+","detail":"example\.com: not on the list"/);
  });
});
