import type { Redis } from 'ioredis';
import { keys } from './redis.ts';
import type { Signer } from './signing.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { RunExecution } from '../subagents/execution.ts';

/** A message for a run, as SendToSubagent and /subagents send name it. */
export interface RunMessage {
  id: string;
  text: string;
}

/** Everything asked of a run that its worker has not acted on yet. */
export interface RunAsks {
  /** Why it is to stop, once it is. */
  stop?: string;
  /** Messages not yet taken, oldest first: each is taken once. */
  messages: RunMessage[];
  /** The holds on its timeout now (people it waits on): the whole set, not a change; none when what is there was refused (nothing changes). */
  holds?: string[];
  /** Why asks found in its keys were not taken: not signed by the bridge for this run, expired, or taken before. */
  refused: string[];
}

/** The run a worker reads asks for, and what it has taken of them already (replays are refused). */
export interface AskReader {
  runId: string;
  attempt: number;
  /** Nonces of the messages taken: a message put back into the inbox is not delivered twice. */
  taken: Set<string>;
  /** When the newest set of holds taken was written: an older one put back is not taken. */
  holdsAt: number;
}

interface HoldsSnapshot {
  ids: string[];
  at: number;
}

/** Where a run is placed now: the placement's number and its channel (see SealedChannel). */
export interface RunPlacement {
  attempt: number;
  channel: Signer;
}

/**
 * What the bridge asks of a run on a worker: stop it, give it a message, hold its timeout
 * while it waits on a person. Each ask is sealed in the channel of the run's placement (only
 * its worker reads it, and nobody else could have written it) and kept in the run's keys, then
 * the bell rings (one pub/sub message naming the run), and the worker running it reads the
 * keys. Pub/sub drops what is published while a subscriber reconnects; the keys do not, and a
 * worker reads them again when it is subscribed again and when it starts the run. What is
 * asked before the run is placed waits here, and is written once it is; a run placed anew (a
 * drained worker handed it back) gets its holds again and the messages its last worker left.
 */
export class RunControl {
  /** Each run's holds, written whole each time: a set signed as one, so none can be put back alone. */
  private readonly holds = new Map<string, { ids: Set<string>; at: number }>();
  private readonly placements = new Map<string, RunPlacement>();
  /** What was asked of runs not placed yet. */
  private readonly waiting = new Map<string, { stop?: string; messages: RunMessage[] }>();

  constructor(
    private readonly redis: Redis,
    /** How long the keys (and their signatures) outlive the last ask (the run's retention). */
    private readonly keepSeconds: number,
  ) {}

  /** The run is placed (again): what waited for it, and what its last placement left untaken, is written for this one. */
  async placed(runId: string, placement: RunPlacement): Promise<void> {
    const before = this.placements.get(runId);
    this.placements.set(runId, placement);
    const waiting = this.waiting.get(runId);
    this.waiting.delete(runId);
    if (before && before.attempt !== placement.attempt) {
      const left = await this.redis.multi().lrange(keys.inbox(runId), 0, -1).del(keys.inbox(runId)).exec();
      const taken: RunMessage[] = [];
      for (const raw of (left?.[0]?.[1] as string[] | null) ?? []) {
        const message = before.channel.verify<RunMessage>(raw, { kind: 'message', runId, attempt: before.attempt });
        if (message.ok) taken.push(message.body);
      }
      for (const message of taken) await this.send(runId, message);
      const stop = await this.redis.get(keys.stop(runId));
      const reason = stop === null ? undefined : before.channel.verify<string>(stop, { kind: 'stop', runId, attempt: before.attempt });
      if (reason?.ok) await this.stop(runId, reason.body);
    }
    if (waiting?.stop !== undefined) await this.stop(runId, waiting.stop);
    for (const message of waiting?.messages ?? []) await this.send(runId, message);
    const held = this.holds.get(runId);
    if (held) await this.writeHolds(runId, held);
  }

  /** The run ended: nothing more is asked of it. */
  forget(runId: string): void {
    this.placements.delete(runId);
    this.waiting.delete(runId);
    this.holds.delete(runId);
  }

  async stop(runId: string, reason: string): Promise<void> {
    const placement = this.placements.get(runId);
    if (!placement) return void (this.waitingFor(runId).stop ??= reason);
    const signed = placement.channel.sign({ kind: 'stop', runId, attempt: placement.attempt }, reason, this.keepSeconds);
    await this.ring(runId, this.redis.multi().set(keys.stop(runId), JSON.stringify(signed), 'EX', this.keepSeconds));
  }

  async send(runId: string, message: RunMessage): Promise<void> {
    const placement = this.placements.get(runId);
    if (!placement) return void this.waitingFor(runId).messages.push(message);
    const inbox = keys.inbox(runId);
    const signed = placement.channel.sign({ kind: 'message', runId, attempt: placement.attempt }, message, this.keepSeconds);
    await this.ring(runId, this.redis.multi().rpush(inbox, JSON.stringify(signed)).expire(inbox, this.keepSeconds));
  }

  async hold(runId: string, holdId: string): Promise<void> {
    const held = this.holds.get(runId) ?? { ids: new Set<string>(), at: 0 };
    this.holds.set(runId, held);
    held.ids.add(holdId);
    await this.writeHolds(runId, held);
  }

  async release(runId: string, holdId: string): Promise<void> {
    const held = this.holds.get(runId);
    if (!held?.ids.delete(holdId)) return;
    if (!held.ids.size) this.holds.delete(runId);
    await this.writeHolds(runId, held);
  }

  private waitingFor(runId: string): { stop?: string; messages: RunMessage[] } {
    const waiting = this.waiting.get(runId) ?? { messages: [] };
    this.waiting.set(runId, waiting);
    return waiting;
  }

  private async writeHolds(runId: string, held: { ids: Set<string>; at: number }): Promise<void> {
    const placement = this.placements.get(runId);
    if (!placement) return; // written once it is placed
    // Strictly later than the last set written, even within one millisecond.
    held.at = Math.max(Date.now(), held.at + 1);
    const snapshot: HoldsSnapshot = { ids: [...held.ids], at: held.at };
    const signed = placement.channel.sign({ kind: 'holds', runId, attempt: placement.attempt }, snapshot, this.keepSeconds);
    await this.ring(runId, this.redis.multi().set(keys.holds(runId), JSON.stringify(signed), 'EX', this.keepSeconds));
  }

  /** The ask and the bell in one transaction: a worker that hears the bell finds the ask. */
  private async ring(runId: string, ask: ReturnType<Redis['multi']>): Promise<void> {
    await ask.publish(keys.control, runId).exec();
  }
}

/** Why a run is to stop, when the bridge asked it (sealed in its placement's channel); `refused` hears why a stop found is not taken. */
export async function readStop(
  redis: Redis,
  signer: Signer,
  reader: Pick<AskReader, 'runId' | 'attempt'>,
  refused: (why: string) => void,
): Promise<string | undefined> {
  const raw = await redis.get(keys.stop(reader.runId));
  return raw === null ? undefined : stopOf(signer, reader, raw, refused);
}

/** The stop's reason, when the bridge signed it for this run and attempt. */
function stopOf(signer: Signer, reader: Pick<AskReader, 'runId' | 'attempt'>, raw: string, refused: (why: string) => void): string | undefined {
  const verified = signer.verify<string>(raw, { kind: 'stop', runId: reader.runId, attempt: reader.attempt });
  if (verified.ok && typeof verified.body === 'string') return verified.body;
  refused(`a stop: ${verified.ok ? 'it has no reason' : verified.why}`);
  return undefined;
}

/**
 * The worker's side: what is asked of a run now, as far as the bridge sealed it in this
 * placement's channel. Messages are taken (removed) in the same transaction that reads them, so two
 * reads never deliver one twice, and one put back after it was taken is refused.
 */
export async function readAsks(redis: Redis, signer: Signer, reader: AskReader): Promise<RunAsks> {
  const { runId, attempt } = reader;
  const replies = await redis.multi().get(keys.stop(runId)).lrange(keys.inbox(runId), 0, -1).del(keys.inbox(runId)).get(keys.holds(runId)).exec();
  const [stopRaw, inbox, , holdsRaw] = (replies ?? []).map(([error, value]) => (error ? null : value)) as [
    string | null,
    string[] | null,
    number,
    string | null,
  ];
  const refused: string[] = [];
  const asks: RunAsks = { messages: [], refused };
  const stop = stopRaw === null ? undefined : stopOf(signer, reader, stopRaw, (why) => refused.push(why));
  if (stop !== undefined) asks.stop = stop;
  for (const raw of inbox ?? []) {
    const message = signer.verify<RunMessage>(raw, { kind: 'message', runId, attempt });
    if (!message.ok) refused.push(`a message: ${message.why}`);
    else if (reader.taken.has(message.nonce)) refused.push('a message: it was taken before (replayed)');
    else if (typeof message.body?.text !== 'string' || typeof message.body.id !== 'string') refused.push('a message: it has no text');
    else {
      reader.taken.add(message.nonce);
      asks.messages.push({ id: message.body.id, text: message.body.text });
    }
  }
  if (holdsRaw !== null) {
    const holds = signer.verify<HoldsSnapshot>(holdsRaw, { kind: 'holds', runId, attempt });
    if (!holds.ok) refused.push(`its holds: ${holds.why}`);
    else if (!Array.isArray(holds.body?.ids) || typeof holds.body.at !== 'number') refused.push('its holds: they are not a set of holds');
    else if (holds.body.at < reader.holdsAt) refused.push('its holds: an older set than the one taken (replayed)');
    else {
      reader.holdsAt = holds.body.at;
      asks.holds = holds.body.ids.map(String);
    }
  } else asks.holds = [];
  return asks;
}

/** Forgets what was asked of a run that has ended here, but its stop (a later attempt must see it). */
export async function forgetAsks(redis: Redis, runId: string): Promise<void> {
  await redis.del(keys.inbox(runId), keys.holds(runId));
}

/**
 * Subscribes `subscriber` (a connection given to it alone) to the bell: `rang` gets the run
 * each time something is asked of it, and is called with none each time the subscriber is
 * subscribed again after being cut off from Redis (any run may have been asked meanwhile).
 */
export async function onAsks(subscriber: Redis, rang: (runId: string | undefined) => void): Promise<void> {
  subscriber.on('message', (channel: string, runId: string) => {
    if (channel === keys.control) rang(runId);
  });
  await subscriber.subscribe(keys.control);
  // On 'ready' the connection has queued its own resubscription; this one is answered after it.
  subscriber.on(
    'ready',
    () =>
      void subscriber.subscribe(keys.control).then(
        () => rang(undefined),
        () => {},
      ),
  );
}

/** A run on a worker, as what the bridge asks acts on it. */
export interface RunningHere {
  execution: Pick<RunExecution, 'send' | 'holdTimeout'>;
  /** The holds on its timeout, each with its release. */
  holds: Map<string, () => void>;
  /** Its stop was asked and acted on. */
  stopping?: true;
}

/** The worker's side: does what the bridge asked of a run running there (`cancel` ends its job, for the stop's reason). */
export function actOnAsks(running: RunningHere, asks: RunAsks, o: { cancel: (why: string) => void; log: Log }): void {
  for (const why of asks.refused) o.log.warn(`refused from Redis: ${why}`);
  if (asks.stop && !running.stopping) {
    running.stopping = true;
    o.log.info(`stopping the run (${asks.stop})`);
    o.cancel(asks.stop);
  }
  for (const message of asks.messages) {
    if (!running.execution.send(message.text, message.id)) o.log.warn('a message came as the run was ending: it was not delivered');
  }
  if (!asks.holds) return;
  const held = new Set(asks.holds);
  for (const holdId of held) if (!running.holds.has(holdId)) running.holds.set(holdId, running.execution.holdTimeout());
  for (const [holdId, release] of running.holds) {
    if (held.has(holdId)) continue;
    release();
    running.holds.delete(holdId);
  }
}
