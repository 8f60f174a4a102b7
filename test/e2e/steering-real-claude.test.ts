import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellToolCall, type MockModel, type ModelRequest } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { ownerIn, type TelegramWorld } from '../support/telegram-world.ts';

// /subagents send to a run of the real claude: the message goes into the running CLI
// (--input-format stream-json), which takes it within its turn while it has more to do, or
// as the turn after, in the same process.
let real: RealCliWorld;
let mock: MockModel;
let world: TelegramWorld;

beforeAll(async () => {
  real = await startRealCliWorld('claude');
  ({ mock, world } = real);
});
afterAll(() => real.stop());

const CHAT = -700;
const { say, waitText } = ownerIn(() => world, CHAT, 30_000);
const mentions = (request: ModelRequest, word: string) => JSON.stringify(request.messages).includes(word);

/** Messages the newest run's CLI has queued so far, its task included, from the run's log. */
async function queuedInRunLog(): Promise<number> {
  const dir = join(world.dataDir, 'runs');
  const logs = await Promise.all(
    (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).map(async (name) => ({ name, at: (await stat(join(dir, name))).mtimeMs })),
  );
  const newest = logs.sort((a, b) => b.at - a.at)[0];
  if (!newest) return 0;
  const text = await readFile(join(dir, newest.name), 'utf8');
  return text.split('\n').filter((line) => line.includes('"command_lifecycle"') && line.includes('"queued"')).length;
}

/** Once the running run's CLI has queued the message sent to it (after its task), runs `then`. */
async function onceQueued(then: () => void | Promise<void>): Promise<void> {
  await expect.poll(queuedInRunLog, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await then();
}

/** The run's CLI has asked the model. */
const modelAsked = () => expect.poll(() => mock.modelRequests.length, { timeout: 30_000 }).toBeGreaterThan(0);

describe('messages to a running run of the real claude', () => {
  it('join the turn at work: the model hears it with the tool result, and the announcement is that turn’s answer', async () => {
    const go = join(real.cliEnv.workdir, 'go-midturn');
    mock.reset((request) => {
      if (!request.toolResults.length) return { toolCalls: [shellToolCall('claude', `while [ ! -f ${go} ]; do sleep 0.1; done; echo waited`)] };
      return { text: mentions(request, 'BANANA') ? 'heard: BANANA' : 'heard nothing' };
    });
    say('/spawn --label Worker "wait for the go file"');
    await waitText(/^🚀 #1 started: Worker/);
    await modelAsked();
    say('/subagents send #1 also mention BANANA');
    await waitText(/^✉️ #1 Worker has it now: it reads it while it works; its reply is announced here\.$/);
    await onceQueued(() => writeFile(go, ''));
    const done = await waitText(/^✅ #1 Worker/);
    expect(done.text).toContain('heard: BANANA');
    // One turn: the message reached the model beside the tool's result, not in a turn of its own.
    expect(mock.modelRequests).toHaveLength(2);
    expect(mentions(mock.modelRequests[1]!, 'BANANA')).toBe(true);
  });

  it('become the next turn of the same process when the turn has no more to do, and its answer is announced', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    mock.reset(async (request) => {
      if (mentions(request, 'KIWI')) return { text: 'second answer: KIWI' };
      await released; // the task's answer waits until the message is queued behind it
      return { text: 'first answer' };
    });
    say('/spawn --label Second "say something"');
    await waitText(/^🚀 #2 started: Second/);
    await modelAsked();
    say('/subagents send #2 now say KIWI');
    await waitText(/^✉️ #2 Second has it now/);
    await onceQueued(release);
    const done = await waitText(/^✅ #2 Second/);
    expect(done.text).toContain('second answer: KIWI');
    // The second turn continued the first's conversation in the same session.
    expect(mock.modelRequests).toHaveLength(2);
    expect(mentions(mock.modelRequests[1]!, 'first answer')).toBe(true);
  });
});
