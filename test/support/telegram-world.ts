import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FakeTelegram } from './fake-telegram/index.ts';
import { startBridgeProcess, tempDir, type BridgeProcess } from './bridge-process.ts';
import { fakeCliWorld, type FakeCliWorld } from './fake-cli.ts';

export const OWNER = 111;

/**
 * A bot message as a reader takes it: a quick turn's answer takes its progress message's place
 * with the turn's stats as a last line (`✅ 0:01 · 2 steps · …`), which this leaves out.
 */
export function shownText(message: { text?: string | undefined; caption?: string | undefined }): string {
  return (message.text ?? message.caption ?? '').replace(/\n\n[✅❌⏹⌛] \d+:\d\d(:\d\d)? · [^\n]*$/, '');
}
export const STRANGER = 999;

/**
 * The owner, Ada, in one chat of a world (a getter: worlds are made per test): `say` sends as
 * her (the chat's type follows from its id), `waitText` waits for the bot's first message
 * there that matches, as a reader sees it.
 */
export function ownerIn(world: () => TelegramWorld, chatId: number, defaultWaitMs = 20_000) {
  const telegram = () => world().telegram;
  return {
    say: (text: string) => telegram().sendText({ chatId, userId: OWNER, text, firstName: 'Ada' }),
    waitText: (pattern: RegExp, timeoutMs = defaultWaitMs) =>
      telegram().waitFor(
        () =>
          telegram()
            .botMessages(chatId)
            .find((message) => pattern.test(shownText(message))),
        timeoutMs,
      ),
  };
}

/**
 * One test world: a fake Bot API server, the fake CLI, a data and a work directory, and the
 * bridge running as a real process against them. `restart` starts a new bridge on the same data.
 * With `floodLimits`, the fake Bot API answers 429 past Telegram's per-chat limits; `dataFiles`
 * are written into the data directory before the bridge starts.
 */
export interface TelegramWorld {
  telegram: FakeTelegram;
  cli: FakeCliWorld;
  dataDir: string;
  workdir: string;
  bridge: BridgeProcess;
  env: Record<string, string>;
  restart(signal?: NodeJS.Signals): Promise<BridgeProcess>;
  stop(): Promise<void>;
}

export async function startTelegramWorld(
  extraEnv: Record<string, string> = {},
  options: { floodLimits?: boolean; dataFiles?: Record<string, string> } = {},
): Promise<TelegramWorld> {
  const telegram = await FakeTelegram.start({ botUsername: 'bridge_test_bot', ...(options.floodLimits ? { floodLimits: true } : {}) });
  const cli = await fakeCliWorld();
  const data = await tempDir('bridge-data-');
  // Files the bridge reads at its start (hooks.json), written before it starts.
  for (const [name, text] of Object.entries(options.dataFiles ?? {})) await writeFile(join(data.path, name), text, { mode: 0o600 });
  const work = await tempDir('bridge-work-');
  const env: Record<string, string> = {
    ...(cli.env as Record<string, string>),
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    BRIDGE_ALLOWED_USERS: String(OWNER),
    BRIDGE_DATA_DIR: data.path,
    BRIDGE_WORKDIR: work.path,
    // A test's stop does not wait for its turns: the drain's own tests set one.
    BRIDGE_DRAIN_SECONDS: '0',
    ...extraEnv,
  };
  const world: TelegramWorld = {
    telegram,
    cli,
    dataDir: data.path,
    workdir: work.path,
    env,
    bridge: await running(env),
    async restart(signal = 'SIGTERM') {
      world.bridge.kill(signal);
      await world.bridge.exited;
      world.bridge = await running(env);
      return world.bridge;
    },
    async stop() {
      world.bridge.kill('SIGTERM');
      await world.bridge.exited;
      await telegram.close();
      await Promise.all([cli.cleanup(), data.remove(), work.remove()]);
    },
  };
  return world;
}

async function running(env: Record<string, string>): Promise<BridgeProcess> {
  const bridge = startBridgeProcess(env);
  await bridge.waitForLog(/jsonl-bridge running as/);
  return bridge;
}
