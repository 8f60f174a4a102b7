import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { alive, FAKE_AGENT } from '../support/fake-cli.ts';
import { tempDir } from '../support/bridge-process.ts';
import { parentOf } from '../support/process-tree.ts';
import { endQueueTest, startQueueWorld, type QueueWorld } from '../support/queue-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, shownText } from '../support/telegram-world.ts';

// Chats' own sessions on workers (BRIDGE_SESSION_WORKERS=on): a chat's live CLI runs on one
// worker, reached through the signed queue traffic; its session state comes back to the
// bridge after each turn, so a worker killed mid-turn costs the chat one line, and the turn
// goes on on the other worker in its session. Each worker is a machine of its own: the fake
// CLI keeps its sessions in that worker's CLAUDE_CONFIG_DIR, as Claude Code keeps them in its home.
let redis: RedisServer;
let world: QueueWorld | undefined;
const homes = new Map<string, string>();
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => (redis = await startRedis()));
afterAll(async () => {
  await redis?.stop();
  for (const cleanup of cleanups) await cleanup();
});
afterEach(async (context) => {
  await endQueueTest(context.task.result?.state === 'fail', world, redis);
  world = undefined;
});

const CHAT = OWNER;
const texts = () => world!.telegram.botMessages(CHAT).map((m) => shownText(m));
const say = (text: string) => world!.telegram.sendText({ chatId: CHAT, userId: OWNER, text, firstName: 'Ada' });
const answer = (pattern: RegExp, timeoutMs = 30_000) =>
  world!.telegram.waitFor(() => world!.telegram.botMessages(CHAT).find((m) => pattern.test(shownText(m))), timeoutMs);
const press = (message: { messageId: number; buttons: readonly unknown[] }, text: string) => {
  const button = (message.buttons as { text: string; callback_data: string }[]).find((b) => b.text === text);
  if (!button) throw new Error(`no button "${text}" among ${JSON.stringify(message.buttons)}`);
  return world!.telegram.pressButton({ chatId: CHAT, messageId: message.messageId, data: button.callback_data, userId: OWNER });
};
const invocation = async (prompt: string) => {
  await expect.poll(async () => (await world!.cli.invocations()).find((c) => c.prompt === prompt), { timeout: 30_000 }).toBeTruthy();
  return (await world!.cli.invocations()).find((c) => c.prompt === prompt)!;
};

/** A chat whose first turn (`first`) was answered, and whose turn for `command` is now at work: the first's invocation. */
async function turnAtWork(first: string, command: string) {
  say(first);
  await answer(new RegExp(`^echo: ${first} \\(turn 1\\)$`));
  const invoked = await invocation(first);
  say(command);
  await invocation(command);
  return invoked;
}

async function twoWorkers(env: Record<string, string> = {}): Promise<QueueWorld> {
  for (const name of ['w1', 'w2']) {
    if (homes.has(name)) continue;
    const home = await tempDir(`claude-home-${name}-`);
    cleanups.push(() => home.remove());
    homes.set(name, home.path);
  }
  return startQueueWorld(redis, ['w1', 'w2'], { BRIDGE_SESSION_WORKERS: 'on', ...env }, (name) => ({
    CLAUDE_CONFIG_DIR: homes.get(name)!,
    BRIDGE_DATA_DIR: join(homes.get(name)!, 'data'),
  }));
}

describe("chats' sessions on workers", () => {
  it('runs the chat’s live CLI on one worker: the next message, a steer, a question by button and Stop reach it there', async () => {
    world = await twoWorkers();
    say('one');
    await answer(/^echo: one \(turn 1\)$/);
    const first = await invocation('one');
    // The CLI is a worker's child, never the bridge's, and it stays up between turns.
    const worker = [...world.workers].find(([, process]) => process.pid === parentOf(first.pid));
    expect(worker).toBeDefined();
    expect(alive(first.pid)).toBe(true);

    say('two');
    await answer(/^echo: two \(turn 2\)$/);
    expect((await invocation('two')).pid).toBe(first.pid);

    say('tools:10 pace:300 steered until-heard');
    await invocation('tools:10 pace:300 steered until-heard');
    say('also check the tests');
    expect((await answer(/^echo: tools:10 pace:300 steered/)).text).toContain('heard: also check the tests');

    say('question pick');
    const asked = await answer(/^❓ Color\nWhich color\?/);
    press(asked, 'Blue');
    expect((await answer(/^echo: question pick/)).text).toContain('answered: Blue');

    say('hang here');
    await invocation('hang here');
    say('/stop');
    await answer(/^⏹ Stopped the turn/);
    say('after the stop');
    await answer(/^echo: after the stop \(turn \d\)$/);
    expect((await invocation('after the stop')).pid).toBe(first.pid);

    say('/status');
    expect((await answer(/^Status\n/)).text).toContain(`worker ${worker![0]}`);
  });

  it('a CLI that cannot stay up between turns (droid) runs each turn on the chat’s worker, a process a turn, in its session', async () => {
    world = await twoWorkers({ BRIDGE_DEFAULT_CLI: 'droid', BRIDGE_DROID_COMMAND: FAKE_AGENT });
    say('first for droid');
    await answer(/^droid echo: first for droid \(turn 1\)$/);
    say('second for droid');
    await answer(/^droid echo: second for droid \(turn 2\)$/);
    const [first, second] = [await invocation('first for droid'), await invocation('second for droid')];
    const workers = new Set([...world.workers.values()].map((worker) => worker.pid));
    expect(workers.has(first.ppid)).toBe(true);
    expect(second.ppid).toBe(first.ppid);
    expect(second.pid).not.toBe(first.pid);
    expect(second.resume).toBe(first.session);
  });

  it('places chats on the least loaded worker: two chats starting at once go to the two workers', async () => {
    world = await twoWorkers();
    const [a, b] = [-3001, -3002];
    for (const sessionKey of [a, b])
      world.telegram.sendText({ chatId: sessionKey, userId: OWNER, text: `first of ${sessionKey}`, chatType: 'group', firstName: 'Ada' });
    for (const sessionKey of [a, b])
      await world.telegram.waitFor(() => world!.telegram.botMessages(sessionKey).find((m) => /^echo: first of/.test(shownText(m))), 30_000);
    const parents = await Promise.all([a, b].map(async (sessionKey) => parentOf((await invocation(`first of ${sessionKey}`)).pid)));
    expect(new Set(parents)).toEqual(new Set([...world.workers.values()].map((worker) => worker.pid)));
  });

  it('a worker killed mid-turn: the turn is sent again to the other worker, in the session copied back, and the chat sees one line', async () => {
    world = await twoWorkers();
    say('remember this');
    await answer(/^echo: remember this \(turn 1\)$/);
    const first = await invocation('remember this');
    const [victim, victimProcess] = [...world.workers].find(([, process]) => process.pid === parentOf(first.pid))!;
    const survivor = victim === 'w1' ? 'w2' : 'w1';

    say('sleep-once:60 cut short');
    const cut = await invocation('sleep-once:60 cut short');
    victimProcess.kill('SIGKILL');
    process.kill(cut.pid, 'SIGKILL'); // its machine is gone with it
    await answer(new RegExp(`^Continuing on worker ${survivor}: worker ${victim} stopped\\.$`));
    // The same message again, in the session as it was copied back after turn 1: this is its turn 2.
    await answer(/^echo: sleep-once:60 cut short \(turn 2\)$/, 60_000);
    const again = (await world.cli.invocations()).filter((c) => c.prompt === 'sleep-once:60 cut short').at(-1)!;
    expect(again.resume).toBe(first.session);
    expect(parentOf(again.pid)).toBe(world.workers.get(survivor)!.pid);
    expect(texts().filter((text) => /^Continuing on worker/.test(text))).toHaveLength(1);

    say('and then');
    await answer(/^echo: and then \(turn 3\)$/);
    // The transcript the bridge keeps is sealed: the turns' words are not readable in it.
    const [file] = readdirSync(join(world.dataDir, 'session-states'));
    const kept = readFileSync(join(world.dataDir, 'session-states', file!), 'utf8');
    expect(kept).not.toContain('remember this');
  }, 120_000);

  it('a worker drained mid-turn gives the turn back after BRIDGE_DRAIN_SECONDS: it goes on on the other worker, in its session', async () => {
    world = await twoWorkers({ BRIDGE_DRAIN_SECONDS: '1' });
    say('before the drain');
    await answer(/^echo: before the drain \(turn 1\)$/);
    const first = await invocation('before the drain');
    const [drained, drainedProcess] = [...world.workers].find(([, process]) => process.pid === parentOf(first.pid))!;
    const other = drained === 'w1' ? 'w2' : 'w1';

    say('sleep-once:60 during the drain');
    await invocation('sleep-once:60 during the drain');
    drainedProcess.kill('SIGTERM');
    await answer(new RegExp(`^Continuing on worker ${other}: worker ${drained} stopped\\.$`));
    // In its session, which holds what the cut turn did too.
    await answer(/^echo: sleep-once:60 during the drain \(turn [3-9]\)$/, 60_000);
    expect(await drainedProcess.exited).toMatchObject({ code: 0 });
    // Its CLI was stopped with it, not left behind.
    expect(alive(first.pid)).toBe(false);
    say('after the drain');
    await answer(/^echo: after the drain \(turn [4-9]\)$/);
    expect(texts().filter((text) => /^Continuing on worker/.test(text))).toHaveLength(1);
  }, 120_000);

  it('the bridge killed mid-turn and started again: the turn goes on on its worker, its answer comes once after the restart, and the session goes on', async () => {
    world = await twoWorkers();
    const first = await turnAtWork('before the restart', 'tools:2 pace:200 sleep:3 across the restart');
    await world.restart('SIGKILL');
    await answer(/^↻ Resuming after the restart: “tools:2 pace:200 sleep:3 across the restart”$/);
    await answer(/^echo: tools:2 pace:200 sleep:3 across the restart \(turn 2\)$/, 60_000);
    // Followed on its worker, not cut and run again: its CLI never heard of the restart.
    expect((await world.cli.invocations()).filter((c) => c.prompt.startsWith('The bridge that runs you restarted'))).toEqual([]);
    say('after the restart');
    await answer(/^echo: after the restart \(turn 3\)$/);
    expect((await invocation('after the restart')).pid).toBe(first.pid);
    expect(texts().filter((text) => text.startsWith('echo: tools:2 pace:200 sleep:3 across the restart'))).toHaveLength(1);
  }, 120_000);

  it('the bridge restarted mid-turn, its shutdown stopping the turn on its worker: the next start resumes it in its session, and it is answered', async () => {
    world = await twoWorkers();
    await turnAtWork('before the restart', 'hang on the worker');
    await world.restart('SIGTERM');
    await answer(/^↻ Resuming after the restart: “hang on the worker”$/);
    // Resumed anew in its session: not followed again on its worker, where the shutdown had stopped it and read how.
    await answer(/^echo: The bridge that runs you restarted while you were working on my last message/, 60_000);
    expect(world.bridge.log()).not.toMatch(/followed again/);
  }, 120_000);

  it('a turn that ended on its worker while the bridge was down: its answer comes after the restart, and it is not run again', async () => {
    world = await twoWorkers();
    await turnAtWork('before the kill', 'sleep:1 ends while the bridge is down');
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    // Its worker ends the turn while no bridge reads: the answer waits in Redis.
    await Promise.race(
      [...world.workers.values()].map((worker) => worker.waitForLog(/its turn ended here: completed[^]*its turn ended here: completed/, 20_000)),
    );
    await world.restart();
    await answer(/^echo: sleep:1 ends while the bridge is down \(turn 2\)$/, 60_000);
    expect((await world.cli.invocations()).map((c) => c.prompt)).toEqual(['before the kill', 'sleep:1 ends while the bridge is down']);
  }, 120_000);

  it('a question pending when the bridge was killed is asked again after the restart, and its answer reaches the turn on the worker', async () => {
    world = await twoWorkers();
    say('question pick');
    await answer(/^❓ Color\nWhich color\?/);
    await world.restart('SIGKILL');
    const asked = await world.telegram.waitFor(() => world!.telegram.botMessages(CHAT).filter((m) => /^❓ Color\nWhich color\?/.test(shownText(m)))[1], 30_000);
    press(asked, 'Blue');
    expect((await answer(/^echo: question pick/)).text).toContain('answered: Blue');
    expect((await world.cli.invocations()).map((c) => c.prompt)).toEqual(['question pick']);
  }, 120_000);

  it("in a mode that only reads, the CLI on a worker may not read that worker's data directory either", async () => {
    world = await twoWorkers({ BRIDGE_PERMISSION_MODE: 'safe' });
    say('read nothing secret');
    await answer(/^echo: read nothing secret \(turn 1\)$/);
    const argv = (await invocation('read nothing secret')).argv.join(' ');
    const worker = [...homes.values()].find((home) => argv.includes(`${join(home, 'data')}/**`));
    expect(worker).toBeDefined();
    expect(argv).toContain(`${world.dataDir}/**`);
  });

  it('with Redis away the chat is told once, the message waits, and it runs on a worker once Redis is back', async () => {
    world = await twoWorkers();
    say('before the outage');
    await answer(/^echo: before the outage \(turn 1\)$/);
    await redis.halt();
    try {
      await world.bridge.waitForLog(/the queue's Redis \(.*\) did not answer/);
      say('during the outage');
      await answer(
        /^This chat's workers cannot be reached: the queue's Redis \(redis:\/\/127\.0\.0\.1:\d+\) is unreachable\. The message waits until it is back\.$/,
      );
    } finally {
      await redis.start();
    }
    await answer(/^echo: during the outage \(turn \d\)$/, 60_000);
    expect(texts().filter((text) => /cannot be reached/.test(text))).toHaveLength(1);
  }, 120_000);

  it('with no worker alive the chat is told once, and the message waits for one', async () => {
    world = await startQueueWorld(redis, [], { BRIDGE_SESSION_WORKERS: 'on' });
    say('waiting one');
    await answer(/^No worker is connected to run this chat: the message waits until one is\.$/);
    await world.startWorker('w1');
    await answer(/^echo: waiting one \(turn 1\)$/);
  });
});
