import type { Log } from '../../kernel/log/logger.ts';
import type { TraceCarrier } from '../../services/telemetry/trace-context.ts';
import type { BridgeKeys } from './bridge-keys.ts';
import type { SealedChannel } from './signing.ts';
import type { RemoteTurn } from './remote-live-cli.ts';
import type { SessionStreamReader } from './session-stream.ts';
import { sessionStream, type SessionEvent, type SessionLaunch } from './session-protocol.ts';
import type { Lease, WorkerRegistry } from './worker-registry.ts';

/** Says a line in the chat (a move to another worker, no worker to run it). */
export type Tell = (text: string) => void;

/** A session on the workers (a chat's, or a run's), as the bridge follows it. */
export interface Placed {
  sessionKey: string;
  /** The worker and placement it has now (none before its first turn), and the placement's channel and the worker's key. */
  worker?: string;
  attempt?: number;
  channel?: SealedChannel;
  publicKey?: string;
  /** The placement's bearer on the MCP endpoint, for the session's secret `token`: revoked when the placement ends. */
  tools?: { token: string; attempt: number; revoke: () => void };
  turn?: RemoteTurn;
  tell: Tell;
  /** Hears the worker it is placed on, at each placement (a run's record names it). */
  placedOn?: (worker: string) => void;
  /** Whether its turns report their CLI's raw lines (a run's log). */
  lines?: boolean;
  /** What its lines call it (a run, `#3 Tests`); a chat's say "this chat". */
  noun?: string;
  /** What its worker's log calls it (see SessionLaunch.what). */
  what?: string;
  /** The operator's MCP servers its own agent names (see SessionLaunch.mcpServers). */
  mcpServers?: string[];
  /** The bridge's span of its work (a run's): its worker's spans join that trace. */
  trace?: TraceCarrier;
  /** Its turn waits for a worker (or for Redis): counted for the metrics and /status. */
  waiting?: boolean;
  /** Permission requests of the turn at work, answered once each. */
  asked: Set<string>;
}

/** What placing sessions needs: the registry, the one reader, the bridge's keys, and who hears each session's reports. */
export interface PlacerParts {
  registry: WorkerRegistry;
  reader: SessionStreamReader;
  keys: BridgeKeys;
  /** Grants `bearer` for what the session's own secret `token` may do, until the returned function revokes it. */
  delegateTools?: (token: string, bearer: string) => (() => void) | undefined;
  log: Log;
  onEvent: (placed: Placed, attempt: number, event: SessionEvent) => Promise<void>;
}

/**
 * Where each session on the workers is, and how it is reached: its worker while its lease holds,
 * else a new placement; its placement's channel and stream, followed; its bearer for the
 * bridge's tools in place of its own secret, which never leaves the bridge.
 */
export class SessionPlacer {
  constructor(private readonly parts: PlacerParts) {}

  /** The session's worker: the one its lease names while that one is alive and takes sessions, else the least loaded (a new placement). */
  async place(placed: Placed): Promise<{ worker: string; attempt: number; fresh: boolean; previous?: string } | undefined> {
    const { sessionKey } = placed;
    const lease = await this.parts.registry.lease(sessionKey);
    const alive = await this.parts.registry.alive();
    // Alive with the key it was placed with (one started again under its name has another: the session is placed anew).
    if (lease && alive.some((state) => state.name === lease.worker && !state.draining && state.publicKey === lease.publicKey)) {
      if (placed.attempt !== lease.attempt) await this.follow(placed, lease);
      return { worker: lease.worker, attempt: lease.attempt, fresh: false };
    }
    const previous = lease?.worker ?? placed.worker;
    const pick = await this.parts.registry.place(sessionKey);
    if (!pick) return undefined;
    await this.follow(placed, pick);
    this.parts.log.info({ session: sessionKey }, `a session placed on worker ${pick.worker}${previous ? ` (it was on ${previous})` : ''}`);
    return { worker: pick.worker, attempt: pick.attempt, fresh: true, ...(previous && previous !== pick.worker ? { previous } : {}) };
  }

  /**
   * The launch as its worker gets it: with the placement's own bearer for the bridge's tools in
   * place of the session's secret (which never leaves the bridge), granted for what that secret
   * may do until the placement ends, or the session's secret is revoked.
   */
  withBearer(placed: Placed, launch: SessionLaunch): SessionLaunch {
    const token = launch.spec.mcp?.token;
    const attempt = placed.attempt!;
    if (!token || !this.parts.delegateTools) {
      placed.tools?.revoke();
      placed.tools = undefined;
      const { mcp: _, ...spec } = launch.spec;
      return { ...launch, spec };
    }
    const bearer = this.parts.keys.bearer(placed.sessionKey, attempt);
    if (placed.tools?.token !== token || placed.tools.attempt !== attempt) {
      placed.tools?.revoke();
      const revoke = this.parts.delegateTools(token, bearer);
      placed.tools = revoke && { token, attempt, revoke };
    }
    return { ...launch, spec: { ...launch.spec, mcp: { ...launch.spec.mcp!, token: bearer } } };
  }

  /** Follows the session's placement now; the last one's bearer ends with it. */
  async follow(placed: Placed, lease: Lease): Promise<void> {
    const { worker, attempt, publicKey } = lease;
    if (placed.attempt !== undefined) await this.parts.reader.forget(sessionStream(placed.sessionKey, placed.attempt)).catch(() => {});
    placed.tools?.revoke();
    placed.tools = undefined;
    const channel = this.parts.keys.channel(placed.sessionKey, attempt);
    Object.assign(placed, { worker, attempt, publicKey, channel });
    await this.parts.reader.follow(
      sessionStream(placed.sessionKey, attempt),
      attempt,
      channel,
      (event) =>
        void this.parts
          .onEvent(placed, attempt, event)
          .catch((error: Error) =>
            this.parts.log.error({ err: error, session: placed.sessionKey }, `an event of a session on a worker failed: ${error.message}`),
          ),
    );
  }
}
