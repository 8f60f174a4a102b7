import type { BridgeConfig } from './config.ts';
import type { Log } from '../kernel/log/logger.ts';
import { BridgeKeys } from '../work/workers/bridge-keys.ts';
import { RemoteSessions } from '../work/workers/remote-sessions.ts';
import { QueueSigner } from '../work/workers/signing.ts';
import type { McpEndpoint } from '../work/tools/mcp-endpoint.ts';

/**
 * The bridge's side of its workers (BRIDGE_REDIS_URL): the one client that places CLI sessions
 * on them, every run's and each chat's when BRIDGE_SESSION_WORKERS is on, with the bridge's own
 * keys for them (queue-keys.json; what it places on each is sealed for that worker alone).
 * create-app.ts loads this module only for a bridge with Redis, so one without loads no queue library.
 */
export async function workerSide(config: BridgeConfig, redisUrl: string, endpoint: McpEndpoint, log: Log): Promise<RemoteSessions> {
  const { workers } = config.settings;
  return new RemoteSessions({
    redisUrl,
    // The configuration refuses BRIDGE_REDIS_URL without its secret.
    signer: new QueueSigner(config.queueSecret!),
    keys: await BridgeKeys.load(config.dataDir),
    // Each placement's own bearer, for what the session may do on the bridge's tools.
    delegateTools: (token, bearer) => endpoint.delegate(token, bearer),
    dataDir: config.dataDir,
    leaseMs: workers.lockSeconds * 1000,
    keepSeconds: workers.keepHours * 3600,
    log,
  });
}
