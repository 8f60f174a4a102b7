import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { openApp } from '../support/app-world.ts';
import { alive, fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';

// A chat's turns are bounded: in time (with a warning first) and in how many may wait.
let world: FakeCliWorld;
let out: RecordingOutbound;
let app: App;

beforeEach(async () => {
  world = await fakeCliWorld();
  out = new RecordingOutbound();
  app = await openApp(world, out, {
    env: { BRIDGE_ALLOWED_USERS: '1' },
    settings: { turnTimeoutSeconds: 2, turnTimeoutWarningSeconds: 1, maxQueuedMessages: 2 },
  });
});
afterEach(async () => {
  await app.shutdown();
  await world.cleanup();
});

const say = (text: string, messageId?: number) =>
  app.bridge.handleMessage({ address: { chatId: -1 }, user: { id: 1, name: 'Ada' }, text, ...(messageId ? { messageId } : {}) });

describe('turn limits', () => {
  it('warns before a turn runs out of time, then stops it with everything it started', async () => {
    await say('grandchild hang');
    await expect.poll(() => out.textsTo(-1).find((t) => t.startsWith('⏳ This turn will be stopped in 0:01')), { timeout: 10_000 }).toBeTruthy();
    await expect.poll(() => out.textsTo(-1).find((t) => t.startsWith('⌛')), { timeout: 10_000 }).toBe('⌛ timed out after 2 s');
    const [cli] = await world.invocations();
    expect(alive(cli!.pid)).toBe(false);
  });

  it('refuses a message past the queue limit, keeping those already waiting', async () => {
    await say('sleep:1 first');
    await expect.poll(() => app.bridge.chats.get({ chatId: -1 }).busy).toBe(true);
    await say('say:second');
    await say('say:third');
    await say('say:fourth', 44);
    expect(out.textsTo(-1).find((t) => t.startsWith('⛔'))).toBe(
      '⛔ 2 messages are already waiting for the agent, so this one was not queued. Send it again once the current turn ends, or /stop.',
    );
    await app.bridge.idle();
    expect((await world.invocations()).map((c) => c.prompt)).toEqual(['sleep:1 first', 'say:second', 'say:third']);
  });
});
