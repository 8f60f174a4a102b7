// A worker's entry: `npm run worker`. It takes subagent runs from the queue on BRIDGE_REDIS_URL
// and executes them on this machine; any number of them, on any machine with the repository
// and the CLIs.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError, EX_CONFIG } from './errors/config-error.ts';
import { configSecrets, loadConfig, type BridgeConfig } from './config/config.ts';
import { createLog } from './log/logger.ts';
import { guardOutput, printFatal } from './log/fatal.ts';
import { ensurePrivateDir } from './store/private-files.ts';
import { reapOrphans } from './process/orphans.ts';
import { removeLeftScratch } from './process/scratch.ts';
import { logAgentUser, startAgentSpace } from './process/agent-start.ts';
import { RunWorker } from './queue/run-worker.ts';
import { QueueSigner } from './queue/signing.ts';
import { QueueSealer } from './queue/sealing.ts';
import { SessionHost } from './queue/session-host.ts';
import { SESSION_SEALING } from './queue/session-state.ts';

// Everything printed is redacted, a crash included (see main.ts).
const secrets = guardOutput('jsonl-bridge worker');

async function main(): Promise<number> {
  let config: BridgeConfig;
  try {
    config = await loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(secrets.redact(`jsonl-bridge worker: ${error.message}`));
      return EX_CONFIG;
    }
    throw error;
  }
  const { redisUrl } = config;
  if (!redisUrl) {
    console.error('jsonl-bridge worker: BRIDGE_REDIS_URL is not set: set it to the Redis the bridge queues runs on, like redis://:password@host:6379/0.');
    return EX_CONFIG;
  }
  for (const secret of configSecrets(config)) secrets.add(secret);
  const name = process.env.BRIDGE_WORKER_NAME?.trim() || `${hostname()}-${process.pid}`;
  const log = createLog({ format: config.logFormat, secrets }).child({ worker: name });
  const home = join(config.dataDir, 'worker');
  await ensurePrivateDir(home);
  await reapOrphans(config.dataDir, log);
  await removeLeftScratch(log);
  try {
    await startAgentSpace(config.agentUser, log);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`jsonl-bridge worker: ${error.message}`);
    return EX_CONFIG;
  }
  // loadConfig requires the queue secret with BRIDGE_REDIS_URL.
  const signer = new QueueSigner(config.queueSecret!);
  const worker = new RunWorker({ config: { ...config, redisUrl }, signer, name, home, log, secrets });
  // Chats' own sessions (a bridge with BRIDGE_SESSION_WORKERS=on places them here); a drain hands them back with sessions.onDrain.
  const sessions = new SessionHost({
    config: { ...config, redisUrl },
    signer,
    sealer: new QueueSealer(config.queueSecret!, SESSION_SEALING),
    name,
    log,
    secrets,
  });
  try {
    await worker.start();
    await sessions.start();
    logAgentUser(config.agentUser, log);
  } catch (error) {
    log.fatal((error as Error).message);
    await sessions.close();
    await worker.close();
    return EX_CONFIG;
  }
  await new Promise<void>((resolve) => {
    let stopping = false;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        if (stopping) process.exit(130);
        stopping = true;
        log.info(`${signal}: stopping the runs here and leaving the queue (again to force)`);
        // Chats' sessions: turns at work get the drain's time to end, then go back to the bridge (sent again elsewhere).
        sessions
          .onDrain(Date.now() + config.restart.drainMs)
          .then(() => Promise.all([sessions.close(), worker.close()]))
          .then(
            () => resolve(),
            (error) => {
              log.error({ err: error }, 'shutdown failed');
              process.exit(1);
            },
          );
      });
    }
  });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    printFatal('jsonl-bridge worker: fatal', error, secrets);
    process.exit(1);
  },
);
