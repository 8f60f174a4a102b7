import type { BridgeConfig } from '../config/config.ts';
import type { Log } from '../log/logger.ts';
import type { BridgeKeys } from '../queue/bridge-keys.ts';
import { RemoteSessions } from '../queue/remote-sessions.ts';
import { QueueSigner } from '../queue/signing.ts';
import type { McpEndpoint } from '../tools/mcp-endpoint.ts';

/** The chats' sessions on workers, when BRIDGE_SESSION_WORKERS is on (it needs BRIDGE_REDIS_URL, which brings the queue secret). */
export function sessionWorkers(config: BridgeConfig, keys: BridgeKeys | undefined, endpoint: McpEndpoint, log: Log): RemoteSessions | undefined {
  if (!config.sessionWorkers.on || !config.redisUrl || !config.queueSecret || !keys) return undefined;
  return new RemoteSessions({
    redisUrl: config.redisUrl,
    signer: new QueueSigner(config.queueSecret),
    keys,
    // Each placement's own bearer, for what the chat's session may do on the bridge's tools.
    delegateTools: (token, bearer) => endpoint.delegate(token, bearer),
    dataDir: config.dataDir,
    leaseMs: config.settings.workers.lockSeconds * 1000,
    keepSeconds: config.settings.workers.keepHours * 3600,
    log,
  });
}
