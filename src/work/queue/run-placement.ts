import type { Redis } from 'ioredis';
import { grantContext, type BridgeKeys } from './bridge-keys.ts';
import type { SealedChannel } from './channel.ts';
import type { RunPlacement } from './control.ts';
import { INTERRUPTED } from './endings.ts';
import { handbackWaits, takeHandback, type Handback } from './handback.ts';
import { keys } from './redis.ts';
import type { QueueSealer } from './sealing.ts';
import type { QueueSigner } from './signing.ts';
import type { WorkerKeys } from './worker-keys.ts';

/** What the worker that took a run is given, sealed for it alone: the placement's key and bearer, the job, and where its last worker stopped. */
export interface RunGrant {
  attempt: number;
  /** The placement's channel key (base64). */
  key: string;
  /** Its secret on the bridge's MCP endpoint, when the run has the bridge's tools. */
  bearer?: string;
  /** The job as the bridge queued it (the worker checks it as a RunJob). */
  job: unknown;
  handback?: Handback;
}

/** A worker's claim of a run it took from the queue: who, and the key to seal its grant for. */
interface Claim {
  worker: string;
  publicKey: string;
}

/** The bridge's answer to a claim, signed with the queue secret; what it holds opens only for the claimer. */
interface Answer {
  /** The placement made (0: none, and `sealed` says why). */
  placement: number;
  sealed: string;
}

/**
 * The bridge's side of placing runs: a run's job waits in the queue sealed with the bridge's own
 * key, so no worker reads it before it is placed. The worker that takes it claims it on the
 * run's event stream with its public key; the bridge makes a placement (the next number), and
 * seals for that worker the job, the placement's channel key, a bearer of its own and what its
 * last worker handed back. A run whose CLI started elsewhere and was not handed back is refused
 * (never run twice). Each claim is answered once.
 */
export class RunPlacements {
  private readonly channels = new Map<string, SealedChannel>();
  private readonly claims = new Set<string>();
  /** Why a run's claim was refused, for when its job fails for it. */
  readonly refusals = new Map<string, string>();

  constructor(
    private readonly options: {
      redis: Redis;
      admission: QueueSigner;
      keys: BridgeKeys;
      jobs: QueueSealer;
      keepSeconds: number;
      refused: (runId: string, why: string) => void;
    },
  ) {}

  /** The channel of the run's placement `attempt` (any number: only the worker it was granted to knows its key). */
  channel(runId: string, attempt: number): SealedChannel | undefined {
    if (!Number.isSafeInteger(attempt) || attempt < 1) return undefined;
    const id = `${runId}\n${attempt}`;
    let channel = this.channels.get(id);
    if (!channel) this.channels.set(id, (channel = this.options.keys.channel('run', runId, attempt)));
    return channel;
  }

  /** The run's placement now, when it has one (after a restart: the bridge follows it again). */
  async current(runId: string): Promise<RunPlacement | undefined> {
    const attempt = Number((await this.options.redis.get(keys.placements(runId))) ?? 0);
    const channel = this.channel(runId, attempt);
    return channel && { attempt, channel };
  }

  /**
   * Whether the run's last worker handed it back before its job went back to the queue: its
   * handback waits for the next claim. One not sealed by a worker the run was placed on is
   * refused and thrown away.
   */
  async handedBack(runId: string): Promise<boolean> {
    const before = await this.placementsSoFar(runId);
    return before > 0 && handbackWaits(this.options.redis, this.placedBefore(runId, before), runId, (why) => this.options.refused(runId, why));
  }

  private async placementsSoFar(runId: string): Promise<number> {
    return Number((await this.options.redis.get(keys.placements(runId))) ?? 0);
  }

  /** The channels of the placements the run had so far (a handback's seal is checked against its own). */
  private placedBefore(runId: string, before: number): (attempt: number) => SealedChannel | undefined {
    return (attempt) => (attempt <= before ? this.channel(runId, attempt) : undefined);
  }

  /** The job's data as queued: its record sealed for the bridge alone, signed with the queue secret (only a worker of this bridge takes it). */
  queued(runId: string, job: unknown): unknown {
    const sealed = this.options.jobs.seal(Buffer.from(JSON.stringify(job), 'utf8'), runId);
    return this.options.admission.sign({ kind: 'job', runId, attempt: 1 }, { sealed }, this.options.keepSeconds);
  }

  /** The run's bearer in placement `attempt`. */
  bearer(runId: string, attempt: number): string {
    return this.options.keys.bearer('run', runId, attempt);
  }

  forget(runId: string): void {
    this.refusals.delete(runId);
    for (const ids of [this.channels, this.claims]) for (const id of ids.keys()) if (id.startsWith(`${runId}\n`)) ids.delete(id);
  }

  /** Answers a claim found on the run's stream: a placement sealed for the claimer, or why not. */
  async claim(
    runId: string,
    raw: string,
    run: {
      /** The job's data in the queue now. */
      data: () => Promise<unknown>;
      /** Grants the placement's bearer on the MCP endpoint (revoking the last one); false when the run has no tools. */
      grantTools: (bearer: string) => boolean;
      placed: (placement: RunPlacement) => Promise<void>;
    },
  ): Promise<void> {
    const { admission, redis, keepSeconds } = this.options;
    const claim = admission.verify<Claim>(raw, { kind: 'claim', runId, attempt: 0 });
    if (!claim.ok) return this.options.refused(runId, `a claim: ${claim.why}`);
    const id = `${runId}\n${claim.nonce}`;
    if (this.claims.has(id)) return this.options.refused(runId, 'a claim: it was taken before (replayed)');
    this.claims.add(id);
    const { worker, publicKey } = claim.body;
    if (typeof worker !== 'string' || typeof publicKey !== 'string') return this.options.refused(runId, 'a claim: it is not one');
    const answer = async (placement: number, body: unknown) => {
      const sealed = this.options.keys.grant(publicKey, grantContext('run', runId, placement), body);
      const signed = admission.sign({ kind: 'grant', runId, attempt: 0 }, { placement, sealed } satisfies Answer, keepSeconds);
      await redis.multi().set(keys.grant(runId, claim.nonce), JSON.stringify(signed), 'EX', keepSeconds).publish(keys.control, runId).exec();
    };
    const refuse = (why: string) => {
      this.refusals.set(runId, why);
      return answer(0, { refused: why });
    };
    const before = await this.placementsSoFar(runId);
    let handback: Handback | undefined;
    if (before > 0) {
      handback = await takeHandback(redis, this.placedBefore(runId, before), runId, (why) => this.options.refused(runId, why));
      const startedBy = handback ? undefined : await redis.get(keys.started(runId));
      // Its CLI started on a worker that did not hand it back: it may have acted, so it is not run again.
      if (startedBy) return refuse(`${INTERRUPTED}the worker running it (${startedBy}) stopped before it finished`);
    }
    const data = admission.verify<{ sealed?: unknown }>(await run.data(), { kind: 'job', runId, attempt: 1 });
    const opened = data.ok && typeof data.body.sealed === 'string' ? this.options.jobs.open(data.body.sealed, runId) : undefined;
    if (!opened) return refuse(`its job was refused: ${data.ok ? 'it does not open with the bridge’s key' : data.why}`);
    const attempt = await redis.incr(keys.placements(runId));
    const channel = this.channel(runId, attempt)!;
    const bearer = this.bearer(runId, attempt);
    const tools = run.grantTools(bearer);
    await run.placed({ attempt, channel });
    const grant: RunGrant = {
      attempt,
      key: this.options.keys.channelKey('run', runId, attempt).toString('base64'),
      ...(tools ? { bearer } : {}),
      job: JSON.parse(opened.toString('utf8')),
      ...(handback ? { handback } : {}),
    };
    await answer(attempt, grant);
  }
}

/** How often a worker looks for the bridge's answer at most; a bell wakes it sooner. */
const ANSWER_POLL_MS = 400;

/**
 * The worker's side: claims the run it took, then waits for the bridge's answer (the bridge may
 * be restarting): its grant, opened with this worker's key, or why the run is not to run here.
 * An answer that does not open (a forger's) is skipped, and the wait goes on. `gaveUp` ends
 * the wait (the job was cancelled, or the worker is shutting down).
 */
export async function claimRun(o: {
  redis: Redis;
  admission: QueueSigner;
  keys: WorkerKeys;
  runId: string;
  worker: string;
  keepSeconds: number;
  gaveUp: () => boolean;
  /** Resolves at the run's next bell (the bridge answered, or asked something). */
  bell: () => Promise<void>;
  refused: (why: string) => void;
}): Promise<{ grant: RunGrant } | { refused: string } | undefined> {
  const { redis, admission, runId } = o;
  const claim = admission.sign({ kind: 'claim', runId, attempt: 0 }, { worker: o.worker, publicKey: o.keys.publicKey } satisfies Claim, o.keepSeconds);
  await redis.xadd(keys.events(runId), '*', 'c', JSON.stringify(claim));
  const key = keys.grant(runId, claim.nonce);
  while (!o.gaveUp()) {
    const raw = await redis.eval(TAKE, 1, key);
    if (typeof raw === 'string') {
      const answer = admission.verify<Answer>(raw, { kind: 'grant', runId, attempt: 0 });
      const opened = answer.ok
        ? await o.keys.open<RunGrant | { refused: string }>(redis, 'run', runId, answer.body.placement, answer.body.sealed)
        : { refused: answer.why };
      if ('refused' in opened) o.refused(`its grant: ${opened.refused}`);
      else if ('refused' in opened.body && typeof opened.body.refused === 'string') return { refused: opened.body.refused };
      else if (answer.ok && (opened.body as RunGrant).attempt === answer.body.placement) return { grant: opened.body as RunGrant };
      else o.refused('its grant: it is not for the placement it names');
    }
    await Promise.race([o.bell(), new Promise((resolve) => setTimeout(resolve, ANSWER_POLL_MS))]);
  }
  return undefined;
}

/** Read and removed in one step. */
const TAKE = `
local value = redis.call('GET', KEYS[1])
if value then redis.call('DEL', KEYS[1]) end
return value`;
