import type { Redis } from 'ioredis';
import type { SubagentRunRecord } from '../subagents/record.ts';
import { keys } from './redis.ts';
import type { QueueSigner } from './signing.ts';

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

/**
 * Takes the handback and marks this worker as the run's, in one step: only one worker takes
 * it, and a run whose worker dies afterwards is seen as started (and not run a third time).
 */
const CLAIM = `
local handback = redis.call('GET', KEYS[1])
if not handback then return false end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
return handback`;

/** Leaves the run's handback (signed for it) before its job goes back to the queue. */
export async function writeHandback(redis: Redis, signer: QueueSigner, runId: string, attempt: number, handback: Handback, keepSeconds: number): Promise<void> {
  const signed = signer.sign({ kind: 'handback', runId, attempt }, handback, keepSeconds);
  await redis.set(keys.handback(runId), JSON.stringify(signed), 'EX', keepSeconds);
}

/**
 * The handback a drained worker left for this run, taken by `worker` (none: nothing was left,
 * and the run's CLI started elsewhere and was cut off). One not signed for the run is
 * refused: `refused` hears why, and the run is taken for interrupted.
 */
export async function claimHandback(
  redis: Redis,
  signer: QueueSigner,
  reader: { runId: string; attempt: number; worker: string; keepSeconds: number },
  refused: (why: string) => void,
): Promise<Handback | undefined> {
  const { runId, attempt } = reader;
  const raw = (await redis.eval(CLAIM, 2, keys.handback(runId), keys.started(runId), reader.worker, String(reader.keepSeconds))) as string | null;
  if (raw === null) return undefined;
  const verified = signer.verify<Handback>(raw, { kind: 'handback', runId, attempt });
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
