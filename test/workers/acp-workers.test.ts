import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAcpWorld, type AcpWorld } from '../support/acp-world.ts';
import { parentOf } from '../support/process-tree.ts';
import { addWorkers, endQueueTest, TEST_LOCK_SECONDS, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { allowButtonOf, OWNER, shownText } from '../support/telegram-world.ts';

// An ACP agent (the fake one, from clis.json) on a worker, as claude runs there: a chat's session
// (BRIDGE_SESSION_WORKERS=on) kept up on the worker between turns, its permission requests asked
// in the chat, Stop as `session/cancel` with the process kept; and a run, announced once.

let redis: RedisServer;
let acp: AcpWorld | undefined;
let world: QueueWorld | undefined;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());
afterEach(async (context) => {
  // Its logs if it failed; then the ACP world's stop (the bridge, its workers, the agent's folder); then Redis emptied.
  await endQueueTest(context.task.result?.state === 'fail', world && { ...world, stop: () => acp!.stop() }, redis);
  [acp, world] = [undefined, undefined];
});

const CHAT = -7700;
const telegram = () => world!.telegram;
const say = (text: string) => telegram().sendText({ chatId: CHAT, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
const shown = (pattern: RegExp, ms = 30_000) =>
  telegram().waitFor(
    () =>
      telegram()
        .botMessages(CHAT)
        .find((m) => pattern.test(shownText(m))),
    ms,
  );
const press = (message: { messageId: number; buttons: readonly unknown[] }, label: RegExp) => {
  const button = (message.buttons as { text: string; callback_data: string }[]).find((b) => label.test(b.text));
  if (!button) throw new Error(`no button ${label} among ${JSON.stringify(message.buttons)}`);
  telegram().pressButton({ chatId: CHAT, messageId: message.messageId, data: button.callback_data, userId: OWNER });
};
const prompted = async (text: string) => {
  const find = async () => (await acp!.log()).find((entry) => entry.method === 'session/prompt' && entry.text?.includes(text));
  await expect.poll(find, { timeout: 30_000 }).toBeTruthy();
  return (await find())!;
};

/** The bridge and one worker, both reading the fake ACP agent from the one data directory's clis.json, the chat's default CLI. */
async function acpOnWorker(): Promise<QueueWorld> {
  acp = await startAcpWorld({
    BRIDGE_REDIS_URL: redis.url,
    BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET,
    BRIDGE_WORKER_LOCK_SECONDS: String(TEST_LOCK_SECONDS),
    BRIDGE_SESSION_WORKERS: 'on',
    BRIDGE_PERMISSION_MODE: 'ask',
  });
  return (world = await addWorkers(acp.world, redis, ['w1']));
}

describe('an ACP agent on a worker', () => {
  it("is a chat's session there: its turns in one process, a permission asked in the chat, Stop keeping process and session", async () => {
    await acpOnWorker();
    const worker = world!.workers.get('w1')!;
    say('hello');
    await shown(/^acp echo: hello \(turn 1\)/);
    const first = await prompted('hello');
    // The agent is the worker's child, never the bridge's.
    expect(parentOf(first.pid)).toBe(worker.pid);

    say('bash:ls+-la');
    const question = await telegram().waitFor(
      () =>
        telegram()
          .botMessages(CHAT)
          .find((m) => /ls -la/.test(m.text ?? '') && allowButtonOf(m)),
      30_000,
    );
    press(question, /^✅ Allow$/);
    await shown(/^ran: ls -la/);

    say('sleep:600 LONGJOB');
    await prompted('LONGJOB');
    say('/stop');
    await shown(/^⏹ Stopped the turn; the session goes on with your next message\./);
    say('after the stop');
    await shown(/^acp echo: after the stop \(turn 4\)/);
    const [stopped, next] = [await prompted('LONGJOB'), await prompted('after the stop')];
    expect(next.pid).toBe(first.pid);
    expect(next.sessionId).toBe(first.sessionId);
    expect((await acp!.log()).some((entry) => entry.method === 'session/cancel' && entry.sessionId === stopped.sessionId)).toBe(true);
  });

  it('runs a subagent there, announced once with its answer', async () => {
    await acpOnWorker();
    const worker = world!.workers.get('w1')!;
    say('/spawn --label Far "far away"');
    const announced = await shown(/^✅ #1 Far/);
    expect(shownText(announced)).toContain('acp echo: far away');
    await prompted('far away');
    // Its agent ran there (and ended with the run: the session left the worker).
    expect(worker.log()).toMatch(/run \S+ \(#1\): a turn started here/);
    expect(worker.log()).toMatch(/run \S+ \(#1\): its turn ended here: completed/);
    await expect
      .poll(
        () =>
          telegram()
            .botMessages(CHAT)
            .filter((m) => /^✅ #1 Far/.test(shownText(m))).length,
        { timeout: 2000 },
      )
      .toBe(1);
  });
});
