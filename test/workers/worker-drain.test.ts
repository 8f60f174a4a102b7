import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { alive } from '../support/fake-cli.ts';
import { startWorkerProcess, tempDir } from '../support/bridge-process.ts';
import { endQueueTest, startQueueWorld, TEST_LOCK_SECONDS, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, ownerIn } from '../support/telegram-world.ts';

// A worker's drain, on a real redis-server with a real bridge and two real workers over the
// fake CLI: SIGTERM lets what runs there finish within BRIDGE_DRAIN_SECONDS and hands back
// the rest, which another worker takes up in its CLI session.
let redis: RedisServer;
let world: QueueWorld | undefined;
beforeAll(async () => (redis = await startRedis()));
afterAll(() => redis?.stop());
afterEach(async (context) => {
  await endQueueTest(context.task.result?.state === 'fail', world, redis);
  world = undefined;
});

const CHAT = OWNER;
const { say } = ownerIn(() => world!, CHAT);
const texts = () => world!.telegram.botMessages(CHAT).map((m) => m.text ?? '');
const announcements = () => texts().filter((t) => /^[✅❌⏹⌛] #\d+ /.test(t));
const reply = (pattern: RegExp, timeoutMs = 20_000) => world!.telegram.waitFor(() => texts().find((t) => pattern.test(t)), timeoutMs);
const invocations = (text: string) => world!.cli.invocations().then((calls) => calls.filter((call) => call.prompt.includes(text)));
const started = async (text: string) => {
  await expect.poll(async () => (await invocations(text)).length, { timeout: 20_000 }).toBe(1);
  return (await invocations(text))[0]!;
};
/** Long enough for a second announcement to be out, were there one. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));
/** Lets the runs that wait for `name` (`wait-for:name`, in the chat's directory) go on: each runs until the test says, however loaded the machine. */
const goAhead = (name: string) => writeFile(join(world!.workdir, name), '');

describe('draining a worker', () => {
  it('SIGTERM: a short run finishes on its worker; a long one is handed back and finishes on the other, in its CLI session; each announced once', async () => {
    // One worker first, so both runs are on it; the other joins before the drain.
    world = await startQueueWorld(redis, ['a'], { BRIDGE_DRAIN_SECONDS: '10' });
    // Both run until the drain has begun: the short one is then let finish, the long one never is there.
    say('/spawn --label Short "wait-for:short-go say:short-finished"');
    say('/spawn --label Long "wait-for:long-go say:long-finished"');
    const short = await started('short-finished');
    const long = await started('long-finished');
    await world.startWorker('b');
    const a = world.workers.get('a')!;
    a.kill('SIGTERM');
    await a.waitForLog(/draining: taking no new work; waiting up to 10 s for run [\w-]+ \(#1\), run [\w-]+ \(#2\)|run [\w-]+ \(#2\), run [\w-]+ \(#1\)/);
    await goAhead('short-go');

    expect(await reply(/^✅ #1 Short/, 20_000)).toContain('short-finished');
    await reply(/^#2 Long continues on worker b: worker a stopped\.$/, 20_000);
    expect((await a.exited).code).toBe(0);
    await goAhead('long-go');
    expect(await reply(/^✅ #2 Long/, 30_000)).toContain('long-finished');
    // The other worker took it up in the session the first one had, with its task again.
    const resumed = (await world.cli.invocations()).filter((call) => call.resume === long.session);
    expect(resumed).toHaveLength(1);
    expect(resumed[0]!.prompt).toBe('wait-for:long-go say:long-finished');
    expect(resumed[0]!.pid).not.toBe(long.pid);
    expect(alive(long.pid)).toBe(false);
    expect(a.log()).toMatch(/draining: run [\w-]+ \(#1\) finished here/);
    expect(a.log()).toMatch(/draining: run [\w-]+ \(#2\) was handed back, to go on on another worker/);
    expect(a.log()).toMatch(/drained: 1 finished here, 1 handed back/);
    expect(world.workers.get('b')!.log()).toMatch(/run [\w-]+ \(#2\): a turn started here, its session restored/);
    say('/subagents info 2');
    expect(await reply(/^worker: /m)).toMatch(/^worker: b$/m);
    expect(short.pid).not.toBe(long.pid);
    await settle();
    expect(announcements()).toHaveLength(2);
    expect(texts().filter((t) => / continues on worker /.test(t))).toHaveLength(1);
  });

  it('a second signal hands back what is running at once, without waiting out the drain', async () => {
    world = await startQueueWorld(redis, ['a', 'b'], { BRIDGE_DRAIN_SECONDS: '120' });
    say('/spawn --label Long "wait-for:long-go say:long-finished"');
    const long = await started('long-finished');
    say('/subagents info 1');
    const first = /^worker: (a|b)$/m.exec(await reply(/^worker: [ab]$/m))![1]!;
    const worker = world.workers.get(first)!;
    const other = first === 'a' ? 'b' : 'a';
    worker.kill('SIGTERM');
    await worker.waitForLog(/draining: taking no new work; waiting up to 120 s for run [\w-]+ \(#1\)/);
    // The same signal within a second counts once (npm forwards the group's): the second comes after.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const forcedAt = Date.now();
    worker.kill('SIGTERM');
    await worker.waitForLog(/SIGTERM again: handing back what is still running now/);
    expect((await worker.exited).code).toBe(0);
    expect(Date.now() - forcedAt).toBeLessThan(20_000);
    await reply(new RegExp(`^#1 Long continues on worker ${other}: worker ${first} stopped\\.$`));
    await goAhead('long-go');
    await reply(/^✅ #1 Long/, 30_000);
    const resumed = (await world.cli.invocations()).filter((call) => call.resume === long.session);
    expect(resumed).toHaveLength(1);
    expect(world.workers.get(other)!.log()).toMatch(/run [\w-]+ \(#1\): a turn started here, its session restored/);
    await settle();
    expect(announcements()).toHaveLength(1);
  });

  it('a run handed back to a worker whose CLI does not know its session (another machine) starts afresh there with its task, announced once', async () => {
    world = await startQueueWorld(redis, ['a'], { BRIDGE_DRAIN_SECONDS: '1' });
    say('/spawn --label Far "wait-for:far-go say:done-afresh"');
    const long = await started('done-afresh');
    const a = world.workers.get('a')!;
    a.kill('SIGTERM');
    await a.waitForLog(/draining: run [\w-]+ \(#1\) was handed back/);
    await a.exited;
    // The next worker's machine has no copy of the CLI's session.
    await rm(join(world.cli.dir, 'fake-agent-sessions', `${long.session}.json`));
    await goAhead('far-go');
    await world.startWorker('b');
    expect(await reply(/^✅ #1 Far/, 30_000)).toContain('done-afresh');
    const calls = (await world.cli.invocations()).filter((call) => call.prompt.includes('done-afresh'));
    // Its resume found nothing (the fake CLI says so and logs no turn), and the same prompt ran in a fresh session.
    expect(calls.map((call) => call.resume)).toEqual([undefined, undefined]);
    expect(calls[1]!.session).not.toBe(long.session);
    expect(calls[1]!.prompt).toBe('wait-for:far-go say:done-afresh');
    await settle();
    expect(announcements()).toHaveLength(1);
  });

  it('a worker SIGKILLed during its drain: its run goes on once a worker is back, announced once', async () => {
    world = await startQueueWorld(redis, ['a'], { BRIDGE_DRAIN_SECONDS: '120' });
    say('/spawn --label Doomed "sleep-once:60 say:outlived-a-drain"');
    const cli = await started('say:outlived-a-drain');
    const a = world.workers.get('a')!;
    a.kill('SIGTERM');
    await a.waitForLog(/draining: taking no new work; waiting up to 120 s for run [\w-]+ \(#1\)/);
    // Draining: the run goes on, and nothing is announced yet.
    await settle();
    expect(announcements()).toHaveLength(0);
    expect(alive(cli.pid)).toBe(true);
    a.kill('SIGKILL');
    await a.exited;
    await reply(/^No worker is connected to run #1 Doomed: it waits until one is\.$/, TEST_LOCK_SECONDS * 4000 + 10_000);
    await world.startWorker('a');
    await expect.poll(() => alive(cli.pid), { timeout: 10_000 }).toBe(false);
    expect(await reply(/^✅ #1 Doomed/, 30_000)).toContain('outlived-a-drain');
    await settle();
    expect(announcements()).toHaveLength(1);
  });
});

describe('a worker’s drain setting', () => {
  it('a malformed BRIDGE_DRAIN_SECONDS stops the worker at its start with one clear line (EX_CONFIG)', async () => {
    const data = await tempDir('worker-data-');
    const worker = startWorkerProcess({
      BRIDGE_DATA_DIR: data.path,
      BRIDGE_REDIS_URL: redis.url,
      BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET,
      BRIDGE_DRAIN_SECONDS: 'soon',
    });
    const exit = await worker.exited;
    await data.remove();
    expect(exit.code).toBe(78);
    expect(worker.stderr().trim()).toBe('jsonl-bridge worker: BRIDGE_DRAIN_SECONDS: expected a whole number of at least 0, got "soon"');
  });
});
