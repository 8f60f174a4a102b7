import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentIds, AGENT_USER, cannotSwitchUser, giveToAgent, sharedRepo } from '../support/agent-user.ts';
import { startQueueWorld, type QueueWorld } from '../support/queue-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';

// A worker runs its runs' CLIs as BRIDGE_AGENT_USER too: they cannot read the worker's
// environment (its Redis password) or the data directory.
let redis: RedisServer;
let world: QueueWorld | undefined;
let project: { path: string; remove(): Promise<void> } | undefined;
const skip = cannotSwitchUser();
beforeAll(async () => {
  if (!skip) redis = await startRedis();
});
afterAll(() => redis?.stop());
afterEach(async () => {
  await world?.stop();
  await project?.remove();
  world = project = undefined;
});

const { say, waitText: answer } = ownerIn(() => world!, OWNER);

describe.skipIf(skip)(`a worker with agents as ${AGENT_USER}${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it("runs the run's CLI as that user, who cannot read the worker's environment or the data directory", async () => {
    const ids = agentIds()!;
    project = await sharedRepo(ids.gid);
    world = await startQueueWorld(redis, ['w1'], { BRIDGE_AGENT_USER: AGENT_USER, BRIDGE_WORKDIR: project.path });
    await giveToAgent(world.cli.dir, ids);
    say('/spawn "whoami"');
    const done = await answer(/^✅ #1/, 30_000);
    expect(done.text).toContain(`uid: ${ids.uid}`);
    expect(done.text).toMatch(new RegExp(`environ: refused: cat: /proc/${world.workers.get('w1')!.pid}/environ: Permission denied`));
    expect(done.text).toMatch(/data: refused: ls: cannot open directory .*: Permission denied/);
    expect(done.text).toMatch(/git: ok/);
  });
});
