import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { LiveLaunch, PermissionRequest } from '../../engine/session/live-cli.ts';
import type { TurnLimits, TurnOutcome } from '../../engine/session/running-turn.ts';
import type { AgentEvent, PermissionDecision } from '../../kernel/protocols/events.ts';
import type { McpAccess } from '../../engine/adapters/turn-options.ts';
import { keys } from './redis.ts';
import { registryKeys } from './worker-registry.ts';
import { jsonOf } from '../../kernel/protocols/decoder.ts';
import type { SealedChannel, Signed } from './signing.ts';
import type { WorkerKeys } from './worker-keys.ts';
import type { PackedSession, SessionState } from './session-state.ts';
import type { TraceCarrier } from '../../services/telemetry/trace-context.ts';

/**
 * What a worker needs to start a session's CLI as the bridge would: the CLI by name (the worker
 * has its own adapters and environment), its options, directory and mode. Sealed in the
 * placement's channel with the rest of its ask: it holds the placement's secret for the
 * bridge's tools.
 */
export interface SessionLaunch {
  /** What the session is, for the worker's log: a run (`run <id> (#3)`), or a session (by its hashed id). */
  what?: string;
  cli: string;
  spec: Omit<LiveLaunch['spec'], 'mcp'> & { mcp?: Omit<McpAccess, 'configFile'> };
  cwd: string;
  mode: LiveLaunch['mode'];
  graceMs?: number;
  /**
   * The operator's MCP servers the session's own agent names, and those each agent its CLI may
   * delegate to names (Claude Code's inline `mcpServers`): by name only. Their `env` and
   * `headers` are the worker's own (its `mcp-servers.json`), never carried through Redis.
   */
  mcpServers?: string[];
  agentMcpServers?: Record<string, string[]>;
  /** Its walls where the worker's sandbox is on: the chat's home, a read-only directory in `safe`, and the chat's own hosts (`/net`). */
  walls?: { home: string; readOnly: boolean; netAllow: string[] };
}

/** What the bridge asks of a session on a worker. */
export type SessionAsk =
  | {
      type: 'turn';
      turnId: string;
      launch: SessionLaunch;
      prompt: string;
      limits: TurnLimits;
      planning: boolean;
      /** The session's state as last copied back (a new placement): put in the CLI's home before it resumes. */
      state?: PackedSession;
      /** Report the CLI's raw output lines too (a run's log). */
      lines?: boolean;
      /** The bridge's span of the work (a run's): the worker's span of this turn joins its trace. */
      trace?: TraceCarrier;
    }
  | { type: 'steer'; turnId: string; text: string; id: string }
  | { type: 'stop'; turnId: string; reason: string }
  | { type: 'decide'; requestId: string; decision: PermissionDecision }
  /** A restarted bridge follows the turn at work again: the requests it waits on are asked again. */
  | { type: 'attach'; turnId: string }
  | { type: 'close' }
  /** The work is over (a run ended): its session leaves the worker, with its lease. */
  | { type: 'leave' };

/** An ask as signed for its worker: for which session and placement. */
export interface SessionAskFor {
  sessionKey: string;
  attempt: number;
  ask: SessionAsk;
}

/** What a worker reports of a session, in order, on the placement's event stream. */
export type SessionEvent =
  | { kind: 'event'; turnId: string; event: AgentEvent }
  /** The turn at work's raw output lines, in batches (only when it asked for them). */
  | { kind: 'lines'; lines: string[] }
  | { kind: 'permission'; turnId: string; request: PermissionRequest }
  /** The session's state after a turn (see session-state.ts), or why it was not copied. */
  | { kind: 'state'; state: SessionState }
  | { kind: 'state-refused'; why: string }
  | { kind: 'done'; turnId: string; outcome: TurnOutcome }
  /** The turn could not start here (its directory is missing, its state was refused…). */
  | { kind: 'failed'; turnId: string; why: string }
  /** The worker gives the session back mid-turn (it is draining): the turn goes on elsewhere. */
  | { kind: 'lost'; turnId: string; why: string };

/** A session's key in Redis: its owner's key hashed (a chat's key holds ids people may not want in Redis). */
export function sessionKeyOf(ownerKey: string): string {
  return `c${createHash('sha256').update(ownerKey).digest('hex').slice(0, 24)}`;
}

/** The report stream of a session in one placement (each placement has its own, signed for its attempt). */
export function sessionStream(sessionKey: string, attempt: number): string {
  return `${sessionKey}-p${attempt}`;
}

/** How long an ask waits for its worker: one not taken by then is refused (the bridge has moved on). */
const ASK_VALID_SECONDS = 600;

/** An ask as it sits in a worker's inbox: for which session and placement (in the clear), sealed in that placement's channel. */
interface Envelope {
  sessionKey: string;
  attempt: number;
  ask: Signed;
  /** The placement's channel key, sealed by the bridge for this worker (see BridgeKeys.grant): with each turn, so a worker that lost it gets it again. */
  grant?: string;
}

/** The bridge's side: an ask sealed in the placement's channel, into its worker's inbox, and its bell rung (the control channel's). */
export async function sendSessionAsk(redis: Redis, channel: SealedChannel, worker: string, ask: SessionAskFor, grant?: string): Promise<void> {
  const { sessionKey, attempt } = ask;
  const envelope: Envelope = {
    sessionKey,
    attempt,
    ask: channel.sign({ kind: 'session', id: sessionKey, attempt }, ask.ask, ASK_VALID_SECONDS),
    grant,
  };
  const inbox = registryKeys.inbox(worker);
  await redis.multi().rpush(inbox, JSON.stringify(envelope)).expire(inbox, ASK_VALID_SECONDS).publish(keys.control, bellFor(worker)).exec();
}

/**
 * Subscribes `subscriber` (a connection given to it alone) to the bell: `rang` is called each time
 * something is asked of `worker`, and each time the subscriber is subscribed again after being
 * cut off from Redis (anything may have been asked meanwhile).
 */
export async function onAsks(subscriber: Redis, worker: string, rang: () => void): Promise<void> {
  subscriber.on('message', (channel: string, bell: string) => {
    if (channel === keys.control && bell === bellFor(worker)) rang();
  });
  await subscriber.subscribe(keys.control);
  // On 'ready' the connection has queued its own resubscription; this one is answered after it.
  subscriber.on('ready', () => void subscriber.subscribe(keys.control).then(rang, () => {}));
}

/** The bell a worker's session asks ring on the control channel. */
export function bellFor(worker: string): string {
  return `worker:${worker}`;
}

/**
 * The worker's side: takes every ask in its inbox at once (read and removed in one
 * transaction), those sealed in the channel of their session's placement here and not taken
 * before. `workerKeys` gives the channel of a placement, opening its grant when one comes.
 */
export async function takeSessionAsks(
  redis: Redis,
  worker: string,
  workerKeys: WorkerKeys,
  taken: Set<string>,
  refused: (why: string) => void,
): Promise<SessionAskFor[]> {
  const inbox = registryKeys.inbox(worker);
  const replies = await redis.multi().lrange(inbox, 0, -1).del(inbox).exec();
  const raw = (replies?.[0]?.[1] as string[] | null) ?? [];
  const asks: SessionAskFor[] = [];
  for (const entry of raw) {
    const { sessionKey, attempt, ask, grant } = jsonOf<Partial<Envelope>>(entry) ?? {};
    if (
      typeof sessionKey !== 'string' ||
      typeof attempt !== 'number' ||
      !Number.isSafeInteger(attempt) ||
      !ask ||
      (grant !== undefined && typeof grant !== 'string')
    ) {
      refused('a session ask: it is not signed');
      continue;
    }
    const channel = await workerKeys.channel(redis, sessionKey, attempt, grant);
    const verified =
      'refused' in channel ? { ok: false as const, why: channel.refused } : channel.verify<SessionAsk>(ask, { kind: 'session', id: sessionKey, attempt });
    if (!verified.ok) refused(`a session ask: ${verified.why}`);
    else if (taken.has(verified.nonce)) refused('a session ask: it was taken before (replayed)');
    else if (!verified.body || typeof verified.body.type !== 'string') refused('a session ask: it is not one');
    else {
      taken.add(verified.nonce);
      asks.push({ sessionKey, attempt, ask: verified.body });
    }
  }
  return asks;
}
