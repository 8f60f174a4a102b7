import { describe, expect, it } from 'vitest';
import { appPerTest } from '../support/app-world.ts';
import { alive } from '../support/fake-cli.ts';
import { chat } from '../support/chats.ts';

// A chat's turns are bounded: in time (with a warning first) and in how many may wait.
const t = appPerTest({
  env: { BRIDGE_ALLOWED_USERS: '1' },
  settings: { turnTimeoutSeconds: 2, turnTimeoutWarningSeconds: 1, maxQueuedMessages: 2 },
});

const say = (text: string, messageId?: number) =>
  t.app.bot.handleMessage({ address: chat(-1), user: { id: '1', name: 'Ada' }, text, ...(messageId ? { messageId: String(messageId) } : {}) });

describe('turn limits', () => {
  it('warns before a turn runs out of time, then stops it with everything it started', async () => {
    await say('grandchild hang');
    await expect.poll(() => t.out.textsTo(-1).find((t) => t.startsWith('⏳ This turn will be stopped in 0:01')), { timeout: 10_000 }).toBeTruthy();
    await expect.poll(() => t.out.textsTo(-1).find((t) => t.startsWith('⌛')), { timeout: 10_000 }).toBe('⌛ timed out after 2 s');
    const [cli] = await t.world.invocations();
    expect(alive(cli!.pid)).toBe(false);
  });

  it('refuses a message past the queue limit, keeping those already waiting', async () => {
    await say('sleep:1 first');
    await expect.poll(() => t.app.bot.chats.get(chat(-1)).busy).toBe(true);
    await say('say:second');
    await say('say:third');
    await say('say:fourth', 44);
    expect(t.out.textsTo(-1).find((t) => t.startsWith('⛔'))).toBe(
      '⛔ 2 messages are already waiting for the agent, so this one was not queued. Send it again once the current turn ends, or /stop.',
    );
    await t.app.bot.idle();
    expect((await t.world.invocations()).map((c) => c.prompt)).toEqual(['sleep:1 first', 'say:second', 'say:third']);
  });
});
