import type { BridgeConfig } from '../config/config.ts';
import type { Log } from '../log/logger.ts';
import { RemoteSessions } from '../queue/remote-sessions.ts';
import { QueueSealer } from '../queue/sealing.ts';
import { SESSION_SEALING } from '../queue/session-state.ts';
import { QueueSigner } from '../queue/signing.ts';

/** The chats' sessions on workers, when BRIDGE_SESSION_WORKERS is on (it needs BRIDGE_REDIS_URL, which brings the queue secret). */
export function sessionWorkers(config: BridgeConfig, log: Log): RemoteSessions | undefined {
  if (!config.sessionWorkers.on || !config.redisUrl || !config.queueSecret) return undefined;
  return new RemoteSessions({
    redisUrl: config.redisUrl,
    signer: new QueueSigner(config.queueSecret),
    sealer: new QueueSealer(config.queueSecret, SESSION_SEALING),
    dataDir: config.dataDir,
    leaseMs: config.settings.workers.lockSeconds * 1000,
    keepSeconds: config.settings.workers.keepHours * 3600,
    log,
  });
}
