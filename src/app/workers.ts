import type { BridgeConfig } from './config.ts';
import type { Log } from '../kernel/log/logger.ts';
import { BridgeKeys } from '../work/workers/bridge-keys.ts';
import { RemoteSessions } from '../work/workers/remote-sessions.ts';
import { QueueSigner } from '../work/workers/signing.ts';
import type { McpEndpoint } from '../work/tools/mcp-endpoint.ts';

/**
 * The bridge's side of its workers (BRIDGE_REDIS_URL): its own keys for them (queue-keys.json;
 * what it places on each is sealed for that worker alone), and the one client that places CLI
 * sessions on them: every run's, and each chat's when BRIDGE_SESSION_WORKERS is on.
 * create-app.ts loads this module only for a bridge with Redis, so one without loads no queue library.
 */
export interface WorkerSide {
  keys: BridgeKeys;
  /** Where runs' sessions go, and chats' with BRIDGE_SESSION_WORKERS. */
  sessions: RemoteSessions;
  /** Chats' own sessions go to workers too (BRIDGE_SESSION_WORKERS), or stay in this process. */
  chatsOnWorkers: boolean;
}

export async function workerSide(config: BridgeConfig, redisUrl: string, endpoint: McpEndpoint, log: Log): Promise<WorkerSide> {
  const keys = await BridgeKeys.load(config.dataDir);
  // The configuration refuses BRIDGE_REDIS_URL without its secret.
  const signer = new QueueSigner(config.queueSecret!);
  const { workers } = config.settings;
  const sessions = new RemoteSessions({
    redisUrl,
    signer,
    keys,
    // Each placement's own bearer, for what the session may do on the bridge's tools.
    delegateTools: (token, bearer) => endpoint.delegate(token, bearer),
    dataDir: config.dataDir,
    leaseMs: workers.lockSeconds * 1000,
    keepSeconds: workers.keepHours * 3600,
    log,
  });
  return { keys, sessions, chatsOnWorkers: config.sessionWorkers.on };
}
