// The bridge's entry: `npm start` (Telegram) or `npm start -- --console` (this terminal).
import { join } from 'node:path';
import { ConfigError, EX_CONFIG } from './errors/config-error.ts';
import { createApp } from './app.ts';
import { configSecrets, loadConfig, type BridgeConfig } from './config/config.ts';
import { createLog, type Log } from './log/logger.ts';
import { guardOutput, printFatal } from './log/fatal.ts';
import { bridgeListeners, cleartextWarnings } from './config/cleartext.ts';
import { ConsoleOutbound } from './console/outbound.ts';
import { CONSOLE, runConsole } from './console/console.ts';
import { migrateDataDir } from './store/data-format.ts';
import { ChatStore } from './store/chat-store.ts';
import { ensurePrivateDir } from './store/json-store.ts';
import { reapOrphans } from './process/orphans.ts';
import { removeLeftScratch } from './process/scratch.ts';
import { logAgentUser, startAgentSpace } from './process/agent-start.ts';
import { createBot, createOutboundApi, startTelegram } from './telegram/bot.ts';
import { TelegramOutbound } from './telegram/outbound.ts';
import { TelegramDownloads } from './telegram/downloads.ts';
import { TELEGRAM } from './telegram/id.ts';
import { reachTelegram, telegramRoundTrip, TokenRefusedError } from './telegram/reach.ts';

// Whatever is printed, from the first line to a crash, is redacted: the environment's secrets
// are known before the configuration is read, and the configuration's once it is.
const secrets = guardOutput('jsonl-bridge');

async function main(argv: string[]): Promise<number> {
  const consoleMode = argv.includes('--console');
  let config: BridgeConfig;
  try {
    config = await loadConfig({ bareNumbers: TELEGRAM });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(secrets.redact(`jsonl-bridge: ${error.message}`));
      return EX_CONFIG;
    }
    throw error;
  }
  if (!consoleMode && !config.telegram.token) {
    console.error(
      'jsonl-bridge: TELEGRAM_BOT_TOKEN is not set: set it to your bot token from @BotFather, or run `npm start -- --console` to use the bridge in this terminal.',
    );
    return EX_CONFIG;
  }
  for (const secret of configSecrets(config)) secrets.add(secret);
  await ensurePrivateDir(config.dataDir);
  // The console keeps the terminal for the conversation: its log goes to a file, and only warnings and errors show.
  const logFile = consoleMode ? join(config.dataDir, 'bridge.log') : undefined;
  const log = createLog({ format: config.logFormat, secrets, ...(logFile ? { file: logFile } : {}) });
  for (const warning of cleartextWarnings(bridgeListeners(config))) log.warn(warning);
  await reapOrphans(config.dataDir, log);
  await removeLeftScratch(log);
  try {
    // Format 1 knew one transport's numeric ids, and the console's chat 0.
    await migrateDataDir(config.dataDir, { legacyTransport: (chatId) => (chatId === 0 ? CONSOLE : TELEGRAM) }, log);
    await startAgentSpace(config.agentUser, log);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`jsonl-bridge: ${error.message}`);
    return EX_CONFIG;
  }
  const store = await ChatStore.open(config.dataDir);

  if (consoleMode) {
    const out = new ConsoleOutbound((text) => process.stdout.write(text), join(config.dataDir, 'console'));
    const app = await createApp({ config, store, out, trustEveryone: true, log, secrets });
    onSignals(app.shutdown, log);
    console.error(`jsonl-bridge console: ${config.defaultCli} in ${config.workdir}. Type a message, or /help. Ctrl-D ends. The log is in ${logFile}.`);
    logAgentUser(config.agentUser, log);
    await app.start();
    await runConsole(app, out, process.stdin);
    await app.shutdown();
    return 0;
  }

  if (config.allowedUsers.length === 0) {
    log.warn('BRIDGE_ALLOWED_USERS is empty: the bot will refuse EVERYONE. Set it to your Telegram user id (the refusal message shows it).');
  }
  let me;
  try {
    me = await reachTelegram(config, log);
  } catch (error) {
    if (!(error instanceof TokenRefusedError)) throw error;
    log.fatal(error.message);
    return EX_CONFIG;
  }
  const bot = createBot(config);
  const downloads = new TelegramDownloads(bot.api, { token: bot.token, apiRoot: config.telegram.apiRoot });
  const out = new TelegramOutbound(createOutboundApi(config));
  const { bridge, start, shutdown } = await createApp({ config, store, out, downloads, log, secrets, roundTripMs: telegramRoundTrip(config) });
  const telegram = await startTelegram(bot, me, bridge, log);
  log.info(`jsonl-bridge running as @${bot.botInfo.username}: ${config.adapters.size} CLIs (default ${config.defaultCli}), data in ${config.dataDir}`);
  logAgentUser(config.agentUser, log);
  await start();
  const stopped = new Promise<void>((resolve) =>
    onSignals(async () => {
      await telegram.stop();
      await shutdown();
      resolve();
    }, log),
  );
  await Promise.race([stopped, telegram.runner.task()]);
  return 0;
}

/** First signal: stop polling, stop CLIs cleanly, persist. Second: leave at once. */
function onSignals(shutdown: () => Promise<void>, log: Log): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(130);
      stopping = true;
      log.info(`${signal}: shutting down (again to force)`);
      shutdown().then(
        () => process.exit(0),
        (error) => {
          log.error({ err: error }, 'shutdown failed');
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
    printFatal('jsonl-bridge: fatal', error, secrets);
    process.exit(1);
  },
);
