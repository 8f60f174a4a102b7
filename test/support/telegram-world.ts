import { FakeTelegram } from './fake-telegram/index.ts';
import { startBridgeWorld, type BridgeWorld } from './bridge-world.ts';
import { START_WAIT_MS, type RunAs } from './bridge-process.ts';

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
 * The Allow button of an approval question, if the message is one. A message naming the same
 * command can come first: the turn's progress, with its Stop button, shows the agent's tool call
 * before the question is asked.
 */
export function allowButtonOf(message: { buttons: readonly unknown[] }): { text: string; callback_data: string } | undefined {
  return (message.buttons as { text: string; callback_data: string }[]).find((button) => /Allow$/.test(button.text));
}

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
export interface TelegramWorld extends BridgeWorld {
  telegram: FakeTelegram;
}

export async function startTelegramWorld(
  extraEnv: Record<string, string> = {},
  options: { floodLimits?: boolean; dataFiles?: Record<string, string>; runAs?: RunAs } = {},
): Promise<TelegramWorld> {
  const telegram = await FakeTelegram.start({ botUsername: 'bridge_test_bot', ...(options.floodLimits ? { floodLimits: true } : {}) });
  const world = await startBridgeWorld({
    env: { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot, BRIDGE_ALLOWED_USERS: String(OWNER), ...extraEnv },
    // A loaded machine (the suite beside a CPU hog) may take its time to start a process.
    ready: (bridge) => bridge.waitForLog(/jsonl-bridge running as/, START_WAIT_MS),
    close: () => telegram.close(),
    ...(options.dataFiles ? { dataFiles: options.dataFiles } : {}),
    ...(options.runAs ? { runAs: options.runAs } : {}),
  });
  return Object.assign(world, { telegram });
}
