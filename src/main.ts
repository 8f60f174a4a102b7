// The bridge's entry: `npm start` (every chat app whose settings are present) or `npm start -- --console` (this terminal).
import { join } from 'node:path';
import { ConfigError, EX_CONFIG } from './kernel/errors/config-error.ts';
import { entry, onSignals, sayWalls, startAgentsHere } from './app/entry.ts';
import { COMMAND_NAMES, createApp } from './app/create-app.ts';
import { configSecrets, loadConfig, type BridgeConfig } from './app/config.ts';
import { createLog, type Log } from './kernel/log/logger.ts';
import { bridgeListeners, cleartextWarnings } from './app/checks/cleartext.ts';
import { CONSOLE, BARE_NUMBERS, chooseTransports } from './kernel/known-transports.ts';
import { migrateDataDir } from './kernel/store/data-format.ts';
import { TransportRefusedError } from './kernel/ports/transport.ts';
import { ChatStore } from './kernel/store/chat-store.ts';
import { chatKey } from './kernel/ports/chat.ts';
import { ensurePrivateDir } from './kernel/store/private-files.ts';
import { BRIDGE_LOCK, lockDataDir } from './kernel/store/data-lock.ts';
import { endOwnClis } from './engine/process/end-own-clis.ts';
import { leavingLine } from './transports/serving/leaving-line.ts';
import type { DrainReason } from './chat/turns/leaving.ts';
import { ServedTransports } from './transports/serving/served-transports.ts';
import { cliProblems } from './app/checks/start-checks.ts';
import { WebOutbound } from './surfaces/web/chat/web-outbound.ts';
import { MetricsSdk } from './services/telemetry/metrics.ts';
import type { Tracing } from './services/telemetry/tracing.ts';
import { startMetrics } from './services/telemetry/metrics-server.ts';

const { secrets, refused, run } = entry('jsonl-bridge');

/** Once the data directory is known: ends what the bridge started, before it exits however it exits (see endOwnClis). */
let endClis = (): void => {};

async function main(argv: string[]): Promise<number> {
  let config: BridgeConfig;
  let transports: ServedTransports;
  let telemetry: MetricsSdk;
  try {
    const chosen = chooseTransports(argv, process.env);
    config = await loadConfig();
    // Before any part is built: they record through the provider it installs.
    telemetry = await MetricsSdk.start(config.metrics, 'jsonl-bridge');
    // Its data directory first: a transport keeps what it must there (the web chat's messages).
    await ensurePrivateDir(config.dataDir);
    await lockDataDir(join(config.dataDir, BRIDGE_LOCK), `the data directory ${config.dataDir}`, 'give this one a BRIDGE_DATA_DIR of its own');
    transports = await ServedTransports.create(chosen, { env: process.env, dataDir: config.dataDir }, COMMAND_NAMES);
  } catch (error) {
    return refused(error);
  }
  for (const secret of [...configSecrets(config), ...transports.secrets]) secrets.add(secret);
  // A transport in this terminal keeps it for the conversation: the log goes to a file, and only warnings and errors show.
  const logFile = transports.inTerminal ? join(config.dataDir, 'bridge.log') : undefined;
  const log = createLog({ format: config.logFormat, secrets, ...(logFile ? { file: logFile } : {}) });
  for (const warning of cleartextWarnings(bridgeListeners(config))) log.warn(warning);
  endClis = () => {
    const { ended, left } = endOwnClis(config.dataDir);
    if (ended) log.info(`ended ${ended} process(es) the bridge had started`);
    if (left.length) log.warn(`processes the bridge started outlive it, though SIGKILLed: ${left.join(', ')}`);
  };
  let tracing: Tracing;
  try {
    // Before any turn: every turn and run is traced from its start.
    tracing = await startAgentsHere(config, 'jsonl-bridge', log, () =>
      // Format 1 knew the numeric ids of the transport bare numbers mean, and the console's chat 0.
      migrateDataDir(config.dataDir, { legacyTransport: (chatId) => (chatId === 0 ? CONSOLE : BARE_NUMBERS) }, log),
    );
  } catch (error) {
    return refused(error);
  }
  if (!transports.everyoneIsOwner && config.allowedUsers.length === 0 && config.owners.length === 0)
    log.warn('BRIDGE_ALLOWED_USERS is empty: the bot will refuse EVERYONE. Set it to your user id (the refusal message shows it).');
  // What a CLI lacks is said before the first message meets it, a chat app out of reach or
  // not; in the background, as a CLI may take seconds to answer.
  const checking = new AbortController();
  void cliProblems(config, checking.signal).then(
    (problems) => problems.forEach((problem) => log.warn(problem)),
    (error: unknown) => log.warn({ err: error }, 'the CLIs could not be checked'),
  );
  try {
    await transports.connect(log);
  } catch (error) {
    checking.abort();
    // What the transport keeps cannot be written (its data directory): the setup's to fix.
    if (!(error instanceof TransportRefusedError)) return refused(error);
    log.fatal(error.message);
    return EX_CONFIG;
  }

  const store = await ChatStore.open(config.dataDir);
  // The web chat, when served, is also the web pages' own: they show its messages and take what people write.
  const webChats = transports.all.map((t) => t.out).find((out) => out instanceof WebOutbound);
  const app = await createApp({
    config,
    store,
    out: transports.out,
    members: transports.members,
    web: webChats && { outbound: webChats, inApp: transports.inApp },
    trustEveryoneOn: transports.everyoneIsOwner,
    log,
    secrets,
    downloads: transports.downloads,
    roundTrips: transports.roundTrips,
    routes: transports.routes,
    scrapeMetrics: () => telemetry.scrape(),
  });
  log.info(`serving ${transports.ids.join(', ')}`);
  // Once, whichever comes first: a signal (which drains first, the transport still serving
  // Stop buttons and approvals and keeping new messages), or the transport ending by itself
  // (the console's input).
  let stopping: Promise<void> | undefined;
  let metricsListener: Awaited<ReturnType<typeof startMetrics>> | undefined;
  const shutdown = (drain?: DrainReason) =>
    (stopping ??= (async () => {
      checking.abort();
      if (drain) await app.drain(drain);
      // What the drain finished is sent while the bridge still stops the rest.
      void tracing.flush();
      await transports.stop();
      await app.shutdown();
      const spansSent = tracing.shutdown();
      // What the stopping turns said last is on disk before the process ends.
      await webChats?.flush();
      await metricsListener?.close();
      // The last interval's metrics, the shutdown's turns among them, reach the collector, beside the last spans.
      await Promise.all([spansSent, telemetry.shutdown(log)]);
      // Whatever a CLI left behind (a child that ignored its group's signals) goes with the bridge.
      endClis();
    })());
  const { inTerminal } = transports;
  const drain = (signal: NodeJS.Signals) => {
    // A service manager's SIGTERM to a bridge serving chat apps is most often a restart; Ctrl-C, or a bridge in a terminal, is someone leaving.
    const why = signal === 'SIGTERM' && !inTerminal ? 'restart' : 'stop';
    const line = inTerminal ? leavingLine(app.atWork(), config.restart.drainMs, CONSOLE) : undefined;
    if (line) console.error(line);
    return shutdown(why);
  };
  leaveOnSignals(drain, inTerminal, log);
  // Who the agents run as, and in what walls: in a log, before the line that says the bridge runs
  // (whoever waits for that line has them); in a terminal, after the greeting a person reads first.
  if (!inTerminal) sayWalls(config, log);
  transports.greet(
    {
      clis: config.adapters.size,
      defaultCli: config.defaultCli,
      workdir: config.workdir,
      dataDir: config.dataDir,
      logFile,
      webUrl: config.web?.url,
      chosen: (chat) => store.get(chatKey(chat)),
    },
    log,
  );
  if (inTerminal) sayWalls(config, log);
  try {
    metricsListener = await startMetrics(config.metrics, telemetry, log);
    await app.start();
  } catch (error) {
    // A listener that cannot listen (a port in use) is the setup's to fix, like a bad variable.
    if (!(error instanceof ConfigError)) throw error;
    log.fatal(error.message);
    checking.abort();
    await app.shutdown();
    return EX_CONFIG;
  }
  // A signal while the bridge started: it is already on its way out, and serves nothing.
  try {
    if (!stopping) await transports.serve(app.host, log);
  } catch (error) {
    // A chat app that refuses the bot while it runs (its token revoked, an intent withdrawn): the setup's to fix, as at the start.
    if (!(error instanceof TransportRefusedError)) throw error;
    log.fatal(error.message);
    await shutdown('stop');
    return EX_CONFIG;
  }
  await shutdown();
  return 0;
}

/**
 * First signal: drain, stop what is left (to go on after the restart), persist, exit 0.
 * Second: leave at once, ending the CLIs' processes first (none outlives the bridge); what was
 * running is resumed at the next start.
 */
function leaveOnSignals(shutdown: (signal: NodeJS.Signals) => Promise<void>, inTerminal: boolean, log: Log): void {
  onSignals((signal, before) => {
    if (before) {
      const leaving = `${signal} again: leaving now; what was running resumes at the next start`;
      // In the terminal, in the words of its first line; a server's log warns.
      if (inTerminal) {
        console.error('Leaving now: what was running goes on at the next start.');
        log.info(leaving);
      } else log.warn(leaving);
      endClis();
      process.exit(130);
    }
    log.info(`${signal}: draining, then shutting down (again to leave at once)`);
    shutdown(signal).then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

run(
  () => main(process.argv.slice(2)),
  (code) => (process.exitCode = code),
  () => endClis(),
);
