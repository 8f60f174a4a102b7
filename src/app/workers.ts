import type { BridgeConfig } from '../services/config/config.ts';
import type { Log } from '../kernel/log/logger.ts';
import { BridgeKeys } from '../work/queue/bridge-keys.ts';
import { QueueExecutor, type QueueExecutorOptions } from '../work/queue/queue-executor.ts';
import { RemoteSessions } from '../work/queue/remote-sessions.ts';
import { QueueSigner } from '../work/queue/signing.ts';
import type { McpEndpoint } from '../work/tools/mcp-endpoint.ts';

/**
 * The bridge's side of its workers (BRIDGE_REDIS_URL): its own keys for them (queue-keys.json;
 * what it places on each is sealed for that worker alone), the executor that places runs, and
 * the chats' sessions on workers when BRIDGE_SESSION_WORKERS is on. create-app.ts loads this module
 * only for a bridge with Redis, so one without loads no queue library.
 */
export interface WorkerSide {
  keys: BridgeKeys;
  /** Chats' sessions on workers, or undefined when they stay in this process. */
  remote: RemoteSessions | undefined;
  /** The executor that puts runs on workers, given what it needs of the runs' side. */
  executor(runs: Pick<QueueExecutorOptions, 'toolsFor' | 'toolTimeoutMs' | 'tell'>): QueueExecutor;
}

export async function workerSide(config: BridgeConfig, redisUrl: string, endpoint: McpEndpoint, log: Log): Promise<WorkerSide> {
  const keys = await BridgeKeys.load(config.dataDir);
  // The configuration refuses BRIDGE_REDIS_URL without its secret.
  const signer = new QueueSigner(config.queueSecret!);
  const { workers } = config.settings;
  const remote = config.sessionWorkers.on
    ? new RemoteSessions({
        redisUrl,
        signer,
        keys,
        // Each placement's own bearer, for what the chat's session may do on the bridge's tools.
        delegateTools: (token, bearer) => endpoint.delegate(token, bearer),
        dataDir: config.dataDir,
        leaseMs: workers.lockSeconds * 1000,
        keepSeconds: workers.keepHours * 3600,
        log,
      })
    : undefined;
  return {
    keys,
    remote,
    executor: (runs) =>
      new QueueExecutor({
        ...runs,
        redisUrl,
        keepSeconds: workers.keepHours * 3600,
        lockSeconds: workers.lockSeconds,
        signer,
        keys,
        log,
      }),
  };
}
