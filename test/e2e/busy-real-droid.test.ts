import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DROID_MODEL } from '../support/cli-env.ts';
import { shellToolCall, type MockModel } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { ownerIn, type TelegramWorld } from '../support/telegram-world.ts';

// Droid runs a process per turn and takes no message while it works: a message sent to a busy
// chat waits for the next turn even in steer mode, and the chat is told so once; it has no
// plan mode the bridge drives.
let real: RealCliWorld;
let mock: MockModel;
let world: TelegramWorld;

beforeAll(async () => {
  real = await startRealCliWorld('droid');
  ({ mock, world } = real);
});
afterAll(() => real.stop());

const CHAT = -910;
const { say, waitText } = ownerIn(() => world, CHAT, 40_000);
const cannotSteer = /^ℹ️ droid cannot take a message while it works, so messages sent meanwhile wait for the next turn\.$/;

describe('a busy chat on droid', () => {
  it('queues what is sent while it works, says so once, and answers each in order', async () => {
    const go = join(real.cliEnv.workdir, 'go-droid');
    mock.reset((request) => {
      if (request.lastUserText.includes('wait for go') && !request.toolResults.length)
        return { toolCalls: [shellToolCall('droid', `while [ ! -f ${go} ]; do sleep 0.1; done; echo waited`)] };
      return { text: `answer to ${request.lastUserText}` };
    });
    // droid reaches the mock model as its custom model.
    say(`/model ${DROID_MODEL}`);
    await waitText(new RegExp(DROID_MODEL));
    say('wait for go');
    await expect.poll(() => mock.modelRequests.length, { timeout: 30_000 }).toBeGreaterThan(0);
    say('second message');
    await waitText(cannotSteer);
    say('third message');
    await writeFile(go, '');
    await waitText(/^answer to third message/);
    const shown = world.telegram.botMessages(CHAT).map((m) => m.text ?? '');
    expect(shown.filter((text) => cannotSteer.test(text))).toHaveLength(1);
    const order = ['answer to wait for go', 'answer to second message', 'answer to third message'].map((answer) =>
      shown.findIndex((text) => text.startsWith(answer)),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('/plan says droid has no plan mode the bridge can drive, and /status that it runs a process per turn', async () => {
    say('/plan');
    await waitText(/droid has no plan mode the bridge can drive\./);
    say('/status');
    expect((await waitText(/^Status\n/)).text).toContain('\nCLI process: one per turn (droid takes no message while it works)\n');
  });
});
