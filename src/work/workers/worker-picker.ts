import type { Redis } from 'ioredis';
import { PREFIX } from './redis.ts';
import type { Lease, WorkerRegistry } from './worker-registry.ts';

/**
 * Places sessions anew: on the least loaded worker alive, leased to the session under a new
 * placement number, one placement at a time. A worker's state counts the sessions placed on
 * it only from its next beat, so those placed since are counted here meanwhile: two sessions
 * starting at once go to two workers.
 */
export class WorkerPicker {
  /** Placements made lately, by worker. */
  private recent: { worker: string; at: number }[] = [];
  private placing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly commands: Redis,
    private readonly registry: WorkerRegistry,
    /** A worker silent this long is taken for dead: it beats four times within it. */
    private readonly leaseMs: number,
  ) {}

  /** The session's new placement, or undefined when no worker takes sessions. */
  place(sessionId: string): Promise<Lease | undefined> {
    const placed = this.placing.then(() => this.placeNow(sessionId));
    this.placing = placed.catch(() => undefined);
    return placed;
  }

  private async placeNow(sessionId: string): Promise<Lease | undefined> {
    const pick = await this.registry.pick(undefined, this.placedSince());
    if (!pick) return undefined;
    this.recent.push({ worker: pick.name, at: Date.now() });
    const attempt = await this.commands.incr(`${PREFIX}:session:${sessionId}:placements`);
    const lease: Lease = { worker: pick.name, attempt, publicKey: pick.publicKey };
    await this.registry.grant(sessionId, lease);
    return lease;
  }

  /** Sessions placed on each worker within the last beat or so (a quarter of a lease, twice over). */
  private placedSince(): Map<string, number> {
    const since = Date.now() - this.leaseMs / 2;
    this.recent = this.recent.filter((placement) => placement.at >= since);
    const counts = new Map<string, number>();
    for (const { worker } of this.recent) counts.set(worker, (counts.get(worker) ?? 0) + 1);
    return counts;
  }
}
