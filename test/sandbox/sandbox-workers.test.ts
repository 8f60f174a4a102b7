import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentIds, AGENT_USER, cannotSwitchUser, giveToAgent, sharedRepo } from '../support/agent-user.ts';
import { listen, type RunningServer } from '../support/loopback-server.ts';
import { addWorkers, endQueueTest, TEST_LOCK_SECONDS, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, ownerIn, startTelegramWorld } from '../support/telegram-world.ts';
import { cannotWall, escapeIn, outsideAddress } from './walls-support.ts';

// A run on a worker, in the worker's own walls: the real redis-server, the bridge, a worker
// process with BRIDGE_SANDBOX=bwrap, and the fake CLI trying to get out.
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
const texts = () => world!.telegram.botMessages(CHAT).map((message) => message.text ?? '');
const HOMES = `/home/${AGENT_USER}/.jsonl-bridge/homes`;

describe.skipIf(cannot)(`a run on a worker with BRIDGE_SANDBOX=bwrap (${cannot ?? AGENT_USER})`, () => {
  it('runs its CLI in the worker’s walls: the worker holds the key, the chat’s /net travels with the job, a blocked host reaches the chat and the audit trail once', async () => {
    const keys: (string | undefined)[] = [];
    const modelApi = await listen((req, res) => {
      keys.push(req.headers['x-api-key'] as string | undefined);
      res.end('{"data":[]}');
    });
    const address = outsideAddress()!;
    const allowed = await listen((_req, res) => res.end('ok'), { host: address });
    servers.push(modelApi, allowed);
    const allowedHost = new URL(allowed.origin).host;
    const ids = agentIds()!;
    project = await sharedRepo(ids.gid);
    const base = await startTelegramWorld({
      BRIDGE_REDIS_URL: redis.url,
      BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET,
      BRIDGE_WORKER_LOCK_SECONDS: String(TEST_LOCK_SECONDS),
      BRIDGE_AGENT_USER: AGENT_USER,
      BRIDGE_SANDBOX: 'bwrap',
      BRIDGE_WORKDIR: project.path,
      // This machine's address is internal: the operator opens it (on the worker too), for /net to allow.
      BRIDGE_SANDBOX_INTERNAL: address,
      FAKE_ESCAPE_URLS: [`${allowed.origin}/`, 'http://example.com/', 'http://example.com/again'].join(','),
      FAKE_ESCAPE_READ: [`/home/${AGENT_USER}`, HOMES].join(','),
      FAKE_ESCAPE_WRITE: [`/home/${AGENT_USER}/notes.md`, join(project.path, 'made.txt')].join(','),
    });
    // The model API key is the worker's alone: the bridge has none to give.
    Object.assign(base.env, { ANTHROPIC_API_KEY: 'sk-ant-worker-secret', ANTHROPIC_BASE_URL: modelApi.origin });
    world = await addWorkers(base, redis, ['w1']);
    await giveToAgent(world.cli.dir, ids);
    expect(world.workers.get('w1')!.log()).toMatch(
      new RegExp(`worker w1 taking work from .*, CLIs in walls \\(every CLI runs in a bubblewrap sandbox as ${AGENT_USER}`),
    );

    say(`/net allow ${allowedHost}`);
    await answer(/may now reach/);
    say('/spawn --label Out "escape"');
    const done = await answer(/^✅ #1 Out/, 60_000);
    const seen = escapeIn(done.text!);
    expect(seen.keys).toEqual(['ANTHROPIC_API_KEY=sk-held-by-the-bridge']);
    expect(seen.model).toBe('ok: status 200');
    expect(keys).toEqual(['sk-ant-worker-secret']);
    expect(seen.read[world.dataDir]).toMatch(/^refused: ENOENT/);
    expect(seen.read[HOMES]).toMatch(/^refused: ENOENT/);
    expect(seen.pids).toBeLessThan(10);
    expect(seen.write[join(project.path, 'made.txt')]).toBe('ok: ');
    // The chat's /net host came with the job; another is refused, said once in the chat.
    expect(seen.proxied[`${allowed.origin}/`]).toBe('ok: status 200');
    expect(seen.proxied['http://example.com/']).toBe('refused: status 403');
    expect(texts().filter((text) => /blocked example\.com/.test(text))).toEqual([
      "🚫 #1 Out: blocked example.com (not on the list); /net allow example.com lets this chat's agents reach it",
    ]);
    const audit = () => readFile(join(world!.dataDir, 'audit.jsonl'), 'utf8').catch(() => '');
    await expect.poll(audit).toMatch(/"event":"blocked","runId":"[^"]+","chat":"[^"]+","detail":"example\.com: not on the list"/);

    // A read-only run (the chat in safe) on the same worker: its directory read-only, the first run's home out of sight.
    say('/permissions safe');
    await answer(/safe/i);
    say('/spawn --label ReadOnly "escape"');
    const second = escapeIn((await answer(/^✅ #2 ReadOnly/, 60_000)).text!);
    expect(second.write[join(project.path, 'made.txt')]).toMatch(/^refused: (EROFS|EACCES)/);
    expect(second.read[`/home/${AGENT_USER}`]).not.toContain('notes.md');
    expect(second.proxied[`${allowed.origin}/`]).toBe('ok: status 200');
  });
});
