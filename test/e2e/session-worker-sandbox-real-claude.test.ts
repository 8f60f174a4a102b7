import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoScript } from '../support/mock-model/index.ts';
import { addWorkers, TEST_LOCK_SECONDS, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { ownerIn } from '../support/telegram-world.ts';
import { agentIds, AGENT_USER, cannotSwitchUser, sharedRepo } from '../support/agent-user.ts';
import { cannotWall } from '../sandbox/walls-support.ts';

// A chat's session with the real claude on a worker in that worker's walls (BRIDGE_SANDBOX=bwrap
// as the agent user): its transcript is kept in the chat's own home there, read back as the
// agent's uid after each turn; with its worker killed and the home gone (another machine), the
// next message resumes the session on the other worker, the transcript put back into the
// chat's home there, again as the agent's uid.
const cannot = cannotSwitchUser() ?? cannotWall();
const HOMES = `/home/${AGENT_USER}/.jsonl-bridge/homes`;
const CHAT = -4311;
let redis: RedisServer;
let real: RealCliWorld;
let world: QueueWorld;
let project: { path: string; remove(): Promise<void> };

beforeAll(async () => {
  if (cannot) return;
  redis = await startRedis();
  project = await sharedRepo(agentIds()!.gid);
  real = await startRealCliWorld('claude', echoScript, {
    BRIDGE_REDIS_URL: redis.url,
    BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET,
    BRIDGE_WORKER_LOCK_SECONDS: String(TEST_LOCK_SECONDS),
    BRIDGE_SESSION_WORKERS: 'on',
    BRIDGE_AGENT_USER: AGENT_USER,
    BRIDGE_WORKDIR: project.path,
  });
  world = await addWorkers(real.world, redis, ['walled-1', 'walled-2'], () => ({ BRIDGE_SANDBOX: 'bwrap' }));
}, 120_000);
afterAll(async () => {
  await real?.stop();
  await redis?.stop();
  await project?.remove();
  for (const name of await readdir(HOMES).catch(() => [] as string[]))
    if (name.startsWith(`telegram_${CHAT}`)) await rm(join(HOMES, name), { recursive: true, force: true });
});

const { say, waitText } = ownerIn(() => world, CHAT, 90_000);

describe.skipIf(cannot)(`the real claude as a chat’s session on a walled worker (${cannot ?? AGENT_USER})`, () => {
  it('keeps its transcript in the chat’s home in the walls, and resumes it on the other worker after its own is killed and the home is gone', async () => {
    say('remember the word apricot');
    await waitText(/^You said: remember the word apricot/);
    const [first] = [...world.workers].filter(([, worker]) => /session \w+: a turn started here/.test(worker.log()));
    const [dead, deadProcess] = first!;
    expect(deadProcess.log()).toMatch(/CLIs in walls/);
    const other = dead === 'walled-1' ? 'walled-2' : 'walled-1';
    // Its session is in the chat's own home, in the walls' homes.
    const home = join(
      HOMES,
      (await readdir(HOMES)).find((name) => name.startsWith(`telegram_${CHAT}`))!,
    );
    const key = project.path.replace(/[^A-Za-z0-9]/g, '-');
    expect((await readdir(join(home, '.claude', 'projects', key))).some((name) => name.endsWith('.jsonl'))).toBe(true);
    deadProcess.kill('SIGKILL');
    await deadProcess.exited;
    await rm(home, { recursive: true, force: true });

    say('which word was it?');
    await waitText(new RegExp(`^Continuing on worker ${other}: worker ${dead} stopped\\.$`));
    await waitText(/^You said: which word was it\?/);
    expect(world.workers.get(other)!.log()).toMatch(/session \w+: a turn started here, its session restored/);
    const request = real.mock.modelRequests.find((r) => r.lastUserText.includes('which word was it?'))!;
    expect(JSON.stringify(request.messages)).toContain('remember the word apricot');
  }, 240_000);
});
