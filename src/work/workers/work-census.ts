import { delay } from '../../kernel/concurrency/delay.ts';
import type { QueueCensus } from '../../services/telemetry/metrics-queue.ts';
import type { Placed } from './session-placer.ts';
import type { WorkerRegistry } from './worker-registry.ts';

/**
 * The work on workers at one look, for the metrics and /status: the turns at work and those
 * waiting for a worker, and how long each worker alive has been silent. Undefined when Redis
 * does not answer within `withinMs`: a scrape or /status never hangs on it.
 */
export async function workCensus(registry: WorkerRegistry, sessions: Iterable<Placed>, withinMs: number): Promise<QueueCensus | undefined> {
  const alive = await Promise.race([registry.alive().catch(() => undefined), delay(withinMs).then(() => undefined)]);
  if (!alive) return undefined;
  const atWork = [...sessions].filter((placed) => placed.turn && !placed.turn.isOver);
  const waiting = atWork.filter((placed) => placed.waiting).length;
  const now = Date.now();
  return {
    waiting,
    active: atWork.length - waiting,
    delayed: 0,
    workersIdleSeconds: alive.map((state) => Math.max(0, (now - (state.at ?? now)) / 1000)),
  };
}

/** The census as /status says it, through `where` (the queue's Redis, by its address). */
export function describeWork(where: string, census: QueueCensus | undefined, withinMs: number): string {
  if (!census) return `on workers, but ${where} has not answered for ${withinMs / 1000} s`;
  const workers = census.workersIdleSeconds.length;
  const through = where.replace(/^the queue's /, '');
  return `on workers through ${through}: ${workers} worker${workers === 1 ? '' : 's'} connected, ${census.active} running, ${census.waiting} waiting for a worker`;
}
