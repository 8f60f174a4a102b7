// The bridge's entry: `npm start` (Telegram) or `npm start -- --console` (this terminal).
import { join } from 'node:path';
import { ConfigError } from './errors/config-error.ts';
import { createApp } from './app.ts';
import { loadConfig, type BridgeConfig } from './config/config.ts';
import { ConsoleOutbound } from './console/outbound.ts';
import { CONSOLE_ADDRESS, runConsole } from './console/console.ts';
import { ChatStore } from './store/chat-store.ts';
import { ensurePrivateDir } from './store/json-store.ts';
import { reapOrphans } from './process/orphans.ts';
import { createBot, createOutboundApi, startTelegram } from './telegram/bot.ts';
import { TelegramOutbound } from './telegram/outbound.ts';
import { TelegramDownloads } from './telegram/downloads.ts';
import { reachTelegram, TokenRefusedError } from './telegram/reach.ts';

const log = (line: string) => console.error(`[${new Date().toISOString()}] ${line}`);

async function main(argv: string[]): Promise<number> {
  const consoleMode = argv.includes('--console');
  let config: BridgeConfig;
  try {
    config = await loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`jsonl-bridge: ${error.message}`);
      return 1;
    }
    throw error;
  }
  if (!consoleMode && !config.telegram.token) {
    console.error(
      'jsonl-bridge: TELEGRAM_BOT_TOKEN is not set: set it to your bot token from @BotFather, or run `npm start -- --console` to use the bridge in this terminal.',
    );
    return 1;
  }
  await ensurePrivateDir(config.dataDir);
  await reapOrphans(config.dataDir, log);
  const store = await ChatStore.open(config.dataDir);

  if (consoleMode) {
    const out = new ConsoleOutbound((text) => process.stdout.write(text), join(config.dataDir, 'console'));
    const app = await createApp({ config, store, out, trustEveryone: true, log });
    onSignals(app.shutdown);
    console.error(`jsonl-bridge console: ${config.defaultCli} in ${config.workdir}. Type a message, or /help. Ctrl-D ends.`);
    await app.start();
    await runConsole(app, out, process.stdin, config.allowedUsers[0] ?? CONSOLE_ADDRESS.chatId);
    await app.shutdown();
    return 0;
  }

  if (config.allowedUsers.length === 0) {
    log('⚠️  WARNING: BRIDGE_ALLOWED_USERS is empty: the bot will refuse EVERYONE. Set it to your Telegram user id (the refusal message shows it).');
  }
  let me;
  try {
    me = await reachTelegram(config, log);
  } catch (error) {
    if (!(error instanceof TokenRefusedError)) throw error;
    console.error(`jsonl-bridge: ${error.message}`);
    return 1;
  }
  const bot = createBot(config);
  const downloads = new TelegramDownloads(bot.api, { token: bot.token, apiRoot: config.telegram.apiRoot });
  const out = new TelegramOutbound(createOutboundApi(config));
  const { bridge, start, shutdown } = await createApp({ config, store, out, downloads, log });
  const telegram = await startTelegram(bot, me, bridge, log);
  log(`jsonl-bridge running as @${bot.botInfo.username}: ${config.adapters.size} CLIs (default ${config.defaultCli}), data in ${config.dataDir}`);
  await start();
  const stopped = new Promise<void>((resolve) =>
    onSignals(async () => {
      await telegram.stop();
      await shutdown();
      resolve();
    }),
  );
  await Promise.race([stopped, telegram.runner.task()]);
  return 0;
}

/** First signal: stop polling, stop CLIs cleanly, persist. Second: leave at once. */
function onSignals(shutdown: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(130);
      stopping = true;
      log(`${signal}: shutting down (again to force)`);
      shutdown().then(
        () => process.exit(0),
        (error) => {
          log(`shutdown failed: ${error}`);
          process.exit(1);
        },
      );
    });
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error('jsonl-bridge: fatal:', error);
    process.exit(1);
  },
);
