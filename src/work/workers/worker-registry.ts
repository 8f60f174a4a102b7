import type { Redis } from 'ioredis';
import { PREFIX } from './redis.ts';
import { asSigned, type QueueSigner, type Signer } from './signing.ts';

/** What a worker says of itself, each heartbeat: what it can take, and what it holds. */
export interface WorkerState {
  name: string;
  /** Chats' live CLI processes it holds at most (BRIDGE_WORKER_LIVE_SESSIONS). */
  capacity: number;
  /** Chats' live CLI processes on it now. */
  load: number;
  /** Chats placed on it (their processes live, or closed while idle). */
  sessions: number;
  /** It is shutting down: no session is placed on it, and its sessions go elsewhere. */
  draining: boolean;
  /** Its own public key (X25519, made at its start): what is placed on it is sealed for it. */
  publicKey: string;
  /** The turn at work for each session that has one here, by the id the bridge sent it with: a restarted bridge follows it again. */
  working?: Record<string, string>;
  /** When it said so (its clock, in ms): how long it has been silent, for the metrics. */
  at?: number;
}

/** Which worker a session lives on, and the placement's number (each move is a new one). */
export interface Lease {
  worker: string;
  attempt: number;
  /** The worker's key the placement was sealed for: a worker started again under the name has another, and the session is placed anew. */
  publicKey: string;
}

export const registryKeys = {
  /** The names of the workers that said they are here (each one's state expires on its own). */
  names: `${PREFIX}:workers`,
  /** A worker's state, signed by it; gone when it stops beating. */
  worker: (name: string) => `${PREFIX}:worker:${name}`,
  /** The bridge's asks of the sessions on a worker, oldest first. */
  inbox: (name: string) => `${PREFIX}:worker:${name}:sessions`,
  /** Which worker a session lives on (signed with the bridge's own key), renewed by that worker while it is alive. */
  lease: (sessionKey: string) => `${PREFIX}:session:${sessionKey}:lease`,
};

/** How often a worker beats within the time it is taken for dead after (its lease's length). */
const BEATS_PER_LEASE = 4;

/**
 * Who is there to run sessions, as the bridge sees it: each worker's signed state with
 * an expiry (a worker that stops beating is gone once it lapses), and each session's lease on the
 * worker its session lives on. A worker's state not signed with the queue secret, or a lease not
 * signed with `leases` (the bridge's own key: no worker moves a session), is ignored.
 *
 * It places sessions anew, one placement at a time: on the least loaded worker alive, leased to
 * the session under a new placement number. A worker's state counts the sessions placed on it
 * only from its next beat, so those placed since are counted here meanwhile: two sessions
 * starting at once go to two workers.
 */
export class WorkerRegistry {
  /** Placements made lately, by worker. */
  private recent: { worker: string; at: number }[] = [];
  private placing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly signer: QueueSigner,
    /** A worker silent this long is taken for dead, and the leases it held lapse (BRIDGE_WORKER_LOCK_SECONDS). */
    readonly leaseMs: number,
    private readonly leases: Signer = signer,
  ) {}

  /** Every worker alive now, as it last said; forgets those whose state lapsed. */
  async alive(): Promise<WorkerState[]> {
    const names = await this.redis.smembers(registryKeys.names);
    if (!names.length) return [];
    const raw = await this.redis.mget(names.map(registryKeys.worker));
    const states: WorkerState[] = [];
    const gone: string[] = [];
    names.forEach((name, i) => {
      const value = raw[i];
      if (value === null || value === undefined) return void gone.push(name);
      const verified = this.signer.verify<WorkerState>(value, { kind: 'worker', id: name, attempt: 0 });
      if (verified.ok && verified.body.name === name && typeof verified.body.publicKey === 'string') states.push(verified.body);
    });
    if (gone.length) await this.redis.srem(registryKeys.names, ...gone);
    return states;
  }

  /**
   * The worker a session goes to: the least loaded of those alive and not draining,
   * by the share of its capacity in use (one with room before any without), never `except`;
   * `placedSince`: sessions placed on each since its last beat (its state does not count them yet).
   */
  async pick(except?: string, placedSince: ReadonlyMap<string, number> = new Map()): Promise<WorkerState | undefined> {
    // Sessions placed since a worker last beat count as its load already: two sessions at once go to two workers.
    const open = (await this.alive())
      .filter((state) => !state.draining && state.name !== except)
      .map((state) => ({ ...state, load: state.load + (placedSince.get(state.name) ?? 0), sessions: state.sessions + (placedSince.get(state.name) ?? 0) }));
    const share = (state: WorkerState) => state.load / Math.max(1, state.capacity);
    open.sort(
      (a, b) => Number(a.load >= a.capacity) - Number(b.load >= b.capacity) || share(a) - share(b) || a.sessions - b.sessions || a.name.localeCompare(b.name),
    );
    return open[0];
  }

  /** The worker a session lives on, while its lease holds. */
  async lease(sessionKey: string): Promise<Lease | undefined> {
    const raw = await this.redis.get(registryKeys.lease(sessionKey));
    if (raw === null) return undefined;
    const attempt = asSigned(raw)?.attempt ?? 0;
    const verified = this.leases.verify<Lease>(raw, { kind: 'lease', id: sessionKey, attempt });
    return verified.ok && typeof verified.body.worker === 'string' && typeof verified.body.publicKey === 'string' ? verified.body : undefined;
  }

  /** Places a session on a worker: the lease the worker renews while it holds the session. */
  async grant(sessionKey: string, lease: Lease): Promise<void> {
    const signed = this.leases.sign({ kind: 'lease', id: sessionKey, attempt: lease.attempt }, lease, 365 * 24 * 3600);
    await this.redis.set(registryKeys.lease(sessionKey), JSON.stringify(signed), 'PX', this.leaseMs);
  }

  /** The session leaves its worker (closed, or moved): the next message places it anew. */
  async release(sessionKey: string): Promise<void> {
    await this.redis.del(registryKeys.lease(sessionKey));
  }

  /** The session's new placement, or undefined when no worker takes sessions. */
  place(sessionKey: string): Promise<Lease | undefined> {
    const placed = this.placing.then(() => this.placeNow(sessionKey));
    this.placing = placed.catch(() => undefined);
    return placed;
  }

  private async placeNow(sessionKey: string): Promise<Lease | undefined> {
    // Sessions placed on each worker within the last beat or so (a quarter of a lease, twice over).
    const since = Date.now() - this.leaseMs / 2;
    this.recent = this.recent.filter((placement) => placement.at >= since);
    const counts = new Map<string, number>();
    for (const { worker } of this.recent) counts.set(worker, (counts.get(worker) ?? 0) + 1);
    const pick = await this.pick(undefined, counts);
    if (!pick) return undefined;
    this.recent.push({ worker: pick.name, at: Date.now() });
    const attempt = await this.redis.incr(`${PREFIX}:session:${sessionKey}:placements`);
    const lease: Lease = { worker: pick.name, attempt, publicKey: pick.publicKey };
    await this.grant(sessionKey, lease);
    return lease;
  }
}

/**
 * A worker's side: it says what it can take and what it holds, every quarter of a lease, and
 * renews the leases of the sessions it holds; `markDraining` says at once that it takes no more
 * (the bridge places no session on it from then on); `leave` takes it out of the registry.
 */
export class WorkerPresence {
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private beating: Promise<void> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly signer: QueueSigner,
    private readonly name: string,
    /** Its own public key, said with its state. */
    private readonly publicKey: string,
    private readonly capacity: number,
    private readonly leaseMs: number,
    /** The sessions it holds now (their leases are renewed). */
    private readonly held: () => string[],
    /** Its live CLI processes now (what its capacity bounds). */
    private readonly load: () => number,
    private readonly onError: (error: Error) => void,
    /** The turns at work now, by session (see WorkerState.working). */
    private readonly working: () => Record<string, string> = () => ({}),
  ) {}

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), Math.max(100, Math.floor(this.leaseMs / BEATS_PER_LEASE)));
    this.timer.unref();
  }

  /** Placement skips this worker from now on (it is shutting down); its sessions are handed back by its owner. */
  async markDraining(): Promise<void> {
    this.draining = true;
    await this.beat();
  }

  /** Out of the registry (the process is leaving): the bridge moves its sessions at their next message. */
  async leave(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    await this.redis.multi().del(registryKeys.worker(this.name)).srem(registryKeys.names, this.name).exec();
  }

  /** Lets a session's lease go if it still names this worker (it left: the next turn places it anew). */
  async release(sessionKey: string): Promise<void> {
    const key = registryKeys.lease(sessionKey);
    const raw = await this.redis.get(key);
    if (raw?.includes(leaseMark(this.name))) await this.redis.del(key);
  }

  /** Says what it can take now; renews the leases of the sessions it holds (a lease that lapsed or moved is not taken back). */
  beat(): Promise<void> {
    this.beating = this.beating.then(() => this.beatOnce().catch(this.onError));
    return this.beating;
  }

  private async beatOnce(): Promise<void> {
    const held = this.held();
    const state: WorkerState = {
      name: this.name,
      capacity: this.capacity,
      load: this.load(),
      sessions: held.length,
      draining: this.draining,
      publicKey: this.publicKey,
      working: this.working(),
      at: Date.now(),
    };
    const signed = this.signer.sign({ kind: 'worker', id: this.name, attempt: 0 }, state, Math.ceil(this.leaseMs / 1000) + 1);
    const beat = this.redis.multi().set(registryKeys.worker(this.name), JSON.stringify(signed), 'PX', this.leaseMs).sadd(registryKeys.names, this.name);
    for (const sessionKey of held) beat.eval(RENEW_LEASE, 1, registryKeys.lease(sessionKey), leaseMark(this.name), String(this.leaseMs));
    await beat.exec();
  }
}

/** How a lease naming `worker` reads in Redis: its signed body, a JSON string within the JSON. */
function leaseMark(worker: string): string {
  return JSON.stringify(`"worker":${JSON.stringify(worker)}`).slice(1, -1);
}

/**
 * Renews a lease that still names this worker (its signed body says so): one moved to another
 * worker, or lapsed and gone, stays so.
 */
const RENEW_LEASE = `
local value = redis.call('GET', KEYS[1])
if value and string.find(value, ARGV[1], 1, true) then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;
