// A worker's entry: `npm run worker`. It holds the CLI sessions the bridge on BRIDGE_REDIS_URL
// places on it (subagent runs, and chats' own sessions with BRIDGE_SESSION_WORKERS) and runs
// them on this machine; any number of them, on any machine with the repository and the CLIs.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError, EX_CONFIG } from './kernel/errors/config-error.ts';
import { configSecrets, loadConfig, type BridgeConfig } from './app/config.ts';
import { createLog, type Log } from './kernel/log/logger.ts';
import { entry, onSignals, sayWalls, startAgentsHere } from './app/entry.ts';
import { lockDataDir } from './kernel/store/data-lock.ts';
import { safeFileName } from './engine/files/safe-name.ts';
import { ensurePrivateDir } from './kernel/store/private-files.ts';
import { endOwnClis } from './engine/process/end-own-clis.ts';
import { DrainDeadline, drainWorker } from './work/workers/worker-drain.ts';
import { QueueSigner } from './work/workers/signing.ts';
import { MetricsSdk } from './services/telemetry/metrics.ts';
import type { Tracing } from './services/telemetry/tracing.ts';
import { startMetrics } from './services/telemetry/metrics-server.ts';
import { SessionHost } from './work/workers/session-host.ts';
import { WorkerKeys } from './work/workers/worker-keys.ts';

const { secrets, refused, run } = entry('jsonl-bridge worker');

async function main(): Promise<number> {
  let config: BridgeConfig;
  try {
    config = await loadConfig();
  } catch (error) {
    return refused(error);
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
  let tracing: Tracing;
  try {
    // Workers may share a data directory (one machine, several workers): each name is one process.
    await lockDataDir(
      join(home, `${safeFileName(name, 'worker')}.lock`),
      `the worker name ${name} in ${home}`,
      'give this one a BRIDGE_WORKER_NAME of its own',
    );
    tracing = await startAgentsHere(config, 'jsonl-bridge-worker', log);
  } catch (error) {
    return refused(error);
  }
  const telemetry = await MetricsSdk.start(config.metrics, 'jsonl-bridge-worker');
  let metricsListener: Awaited<ReturnType<typeof startMetrics>>;
  try {
    metricsListener = await startMetrics(config.metrics, telemetry, log);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log.fatal(error.message);
    return EX_CONFIG;
  }
  // loadConfig requires the queue secret with BRIDGE_REDIS_URL.
  const signer = new QueueSigner(config.queueSecret!);
  // Its own key pair, for this process alone: what the bridge places here is sealed for it.
  const keys = new WorkerKeys(signer);
  const sessions = new SessionHost({ config: { ...config, redisUrl }, signer, keys, name, log, secrets });
  try {
    await sessions.start();
    sayWalls(config, log);
  } catch (error) {
    log.fatal((error as Error).message);
    await sessions.close();
    await tracing.shutdown();
    return EX_CONFIG;
  }
  await new Promise<void>((resolve) => leaveOnSignals(sessions, config.restart.drainMs, log, resolve, () => endOwnClis(config.dataDir)));
  await metricsListener?.close();
  // What its runs' spans still hold, and its last runs' metrics, reach the collector before it leaves.
  await Promise.all([tracing.shutdown(), telemetry.shutdown(log)]);
  return 0;
}

/**
 * First signal: drain (take no new runs, let those here finish within BRIDGE_DRAIN_SECONDS,
 * hand back the rest), then leave. Second: hand back what is still running now. Third: leave
 * at once (what was running is then the stall check's).
 */
function leaveOnSignals(host: SessionHost, drainMs: number, log: Log, left: () => void, endClis: () => void): void {
  let deadline: DrainDeadline | undefined;
  onSignals((signal, before) => {
    if (before === 0) {
      log.info(`${signal}: draining, then leaving (again to hand back what is still running now)`);
      deadline = new DrainDeadline(drainMs);
      drainWorker(host, deadline, log)
        .then(() => host.close())
        .then(left, (error) => {
          log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        });
    } else if (before === 1) {
      log.warn(`${signal} again: handing back what is still running now (again to leave at once)`);
      deadline?.force();
    } else {
      log.warn(`${signal} again: leaving now; what was running here goes on on another worker once its lease lapses`);
      // No CLI outlives the worker: their groups are ended and waited for.
      endClis();
      process.exit(130);
    }
  });
}

run(main, (code) => process.exit(code));
