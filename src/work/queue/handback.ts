import type { Redis } from 'ioredis';
import type { SubagentRunRecord } from '../subagents/record.ts';
import type { RunEnding } from '../subagents/execution.ts';
import { keys } from './redis.ts';
import { asSigned, type Signer } from './signing.ts';

/**
 * What a draining worker leaves for the worker that takes its run next: where the run's CLI
 * stopped, so the next one goes on in the same CLI session, numbers its reports after these,
 * and counts what was done already.
 */
export interface Handback {
  /** The worker that handed it back. */
  from: string;
  /** The CLI's session, to resume; none when its CLI never named one (it had called no tool: it runs again from its task). */
  sessionId?: string;
  /** The number of the last report it wrote to the run's events: the next worker's come after it. */
  seq: number;
  /** Tool calls made so far. */
  steps: number;
  /** How long it ran so far (ms): its timeout counts it. */
  ranMs?: number;
  /** What the run cost so far, where its CLI or the price table said. */
  costUsd?: number;
  /** Its worktree, where it had one: found at the same path, or the run cannot go on. */
  worktree?: SubagentRunRecord['worktree'];
}

/** What a run stopped by the drain leaves (`from` its worker): where its CLI stopped, and what it did and cost so far. */
export function handbackOf(
  from: string,
  ending: Extract<RunEnding, { outcome: unknown }>,
  sessionId: string | undefined,
  seq: number,
  ranMs: number,
): Handback {
  const costUsd = ending.outcome.result?.costUsd;
  return {
    from,
    ...(sessionId ? { sessionId } : {}),
    seq,
    steps: ending.steps,
    ranMs,
    ...(costUsd !== undefined ? { costUsd } : {}),
    ...(ending.worktree ? { worktree: ending.worktree } : {}),
  };
}

/** Leaves the run's handback, sealed in its placement's channel (for the bridge), before its job goes back to the queue. */
export async function writeHandback(redis: Redis, channel: Signer, runId: string, attempt: number, handback: Handback, keepSeconds: number): Promise<void> {
  const signed = channel.sign({ kind: 'handback', runId, attempt }, handback, keepSeconds);
  await redis.set(keys.handback(runId), JSON.stringify(signed), 'EX', keepSeconds);
}

/**
 * The bridge's side: the handback a drained worker left for this run (none: nothing was left),
 * taken once, when its placement's worker sealed it. One that was not is refused: `refused`
 * hears why, and the run is taken for interrupted.
 */
export async function takeHandback(redis: Redis, channelOf: ChannelOf, runId: string, refused: (why: string) => void): Promise<Handback | undefined> {
  const raw = (await redis.eval(TAKE, 1, keys.handback(runId))) as string | null;
  return raw === null ? undefined : opened(raw, channelOf, runId, refused);
}

/**
 * Whether a handback sealed by its placement's worker waits for the run, left for the claim
 * that takes it. One that was not sealed so is refused (`refused` hears why) and thrown away.
 */
export async function handbackWaits(redis: Redis, channelOf: ChannelOf, runId: string, refused: (why: string) => void): Promise<boolean> {
  const raw = await redis.get(keys.handback(runId));
  if (raw === null) return false;
  if (opened(raw, channelOf, runId, refused)) return true;
  await redis.eval(DROP, 1, keys.handback(runId), raw);
  return false;
}

/** The channel of a run's placement `attempt`, when it had that placement. */
type ChannelOf = (attempt: number) => Signer | undefined;

function opened(raw: string, channelOf: ChannelOf, runId: string, refused: (why: string) => void): Handback | undefined {
  const attempt = asSigned(raw)?.attempt ?? 0;
  const verified = channelOf(attempt)?.verify<Handback>(raw, { kind: 'handback', runId, attempt }) ?? { ok: false as const, why: 'it is not signed' };
  if (!verified.ok) return void refused(`a handback: ${verified.why}`);
  const body = verified.body;
  if (
    !body ||
    typeof body.from !== 'string' ||
    !Number.isSafeInteger(body.seq) ||
    !Number.isSafeInteger(body.steps) ||
    (body.ranMs !== undefined && !Number.isSafeInteger(body.ranMs))
  )
    return void refused('a handback: it is not one');
  return body;
}

/** Removed only if it is still the one refused (a worker's own, written since, stays). */
const DROP = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

/** Read and removed in one step: a handback is taken once. */
const TAKE = `
local handback = redis.call('GET', KEYS[1])
if handback then redis.call('DEL', KEYS[1]) end
return handback`;

/** The record a run handed back goes on with here: in its CLI session (or from its task when it had none), where its worktree is. */
export function takenOver(run: SubagentRunRecord, handback: Handback): SubagentRunRecord {
  const { childSessionId: _, ...rest } = run;
  return {
    ...rest,
    ...(handback.sessionId ? { childSessionId: handback.sessionId, resumes: (run.resumes ?? 0) + 1, movedFrom: handback.from } : {}),
    ...(handback.worktree ? { worktree: handback.worktree } : {}),
    // Its time and what it spent before count against its timeout and budget.
    ...(handback.ranMs ? { timeoutSeconds: Math.max(1, run.timeoutSeconds - Math.floor(handback.ranMs / 1000)) } : {}),
    ...(run.budget && handback.costUsd ? { budget: { ...run.budget, usd: Math.max(0, run.budget.usd - handback.costUsd) } } : {}),
  };
}

/** A run's ending here, with what it did and cost on the workers before this one. */
export function withEarlier(ending: RunEnding, handback: Handback): RunEnding {
  if (!('outcome' in ending)) return ending;
  const costUsd = (ending.outcome.result?.costUsd ?? 0) + (handback.costUsd ?? 0);
  const result = ending.outcome.result && handback.costUsd ? { ...ending.outcome.result, costUsd } : ending.outcome.result;
  return {
    ...ending,
    steps: ending.steps + handback.steps,
    outcome: { ...ending.outcome, ...(result ? { result } : {}) },
    ...(ending.stoppedForCost ? { stoppedForCost: { usd: ending.stoppedForCost.usd + (handback.costUsd ?? 0) } } : {}),
  };
}
