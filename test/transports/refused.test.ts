import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { FakeDiscord } from '../support/fake-discord/index.ts';
import { FakeTelegram } from '../support/fake-telegram/index.ts';

// One chat app refusing the bot stops the start of a bridge serving several, naming that app,
// and lets go of those that did connect: the process ends, nothing left holding it.
let telegram: FakeTelegram;
let discord: FakeDiscord;

beforeAll(async () => {
  [telegram, discord] = await Promise.all([FakeTelegram.start(), FakeDiscord.start()]);
});
afterAll(async () => {
  await Promise.all([telegram?.close(), discord?.close()]);
});

describe('a bridge serving several chat apps, one refusing its token', () => {
  it('stops the start with one line naming that app, and ends', async () => {
    const data = await tempDir('bridge-data-');
    try {
      const bridge = startBridgeProcess({
        TELEGRAM_BOT_TOKEN: telegram.token,
        TELEGRAM_API_ROOT: telegram.apiRoot,
        DISCORD_BOT_TOKEN: `${discord.token.slice(0, -6)}WRONG0`,
        DISCORD_API_URL: discord.apiUrl,
        BRIDGE_ALLOWED_USERS: '111',
        BRIDGE_DATA_DIR: data.path,
      });
      const { code } = await bridge.exited;
      expect(code).toBe(78); // EX_CONFIG: fix the setup, do not restart
      const fatal = bridge.logEntries().filter((entry) => entry.level === 'fatal');
      expect(fatal).toHaveLength(1);
      expect(fatal[0]!.msg).toMatch(/Discord/);
      expect(bridge.log()).not.toMatch(/serving /);
    } finally {
      await data.remove();
    }
  });
});
