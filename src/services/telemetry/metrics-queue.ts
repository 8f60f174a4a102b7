import type { BatchObservableResult } from '@opentelemetry/api';
import { instruments, WAIT_SECONDS } from './metrics-instruments.ts';

/** The work on workers at one look: turns by state, and how long each worker has been silent. */
export interface QueueCensus {
  waiting: number;
  active: number;
  delayed: number;
  /** Per connected worker: seconds since it last spoke to Redis (its freshest connection's). */
  workersIdleSeconds: number[];
}

const queue = instruments((meter) => ({
  meter,
  jobs: meter.createObservableGauge('jsonl_bridge.queue.jobs', {
    unit: '{job}',
    description: 'Turns of sessions placed on workers (runs and chats), by state (waiting for a worker, active)',
  }),
  workers: meter.createObservableGauge('jsonl_bridge.workers.connected', { unit: '{worker}', description: 'Workers alive (beating in Redis)' }),
  lag: meter.createObservableGauge('jsonl_bridge.worker.lag', {
    unit: 's',
    description: 'The longest any live worker has been silent (a healthy one beats every few seconds)',
  }),
  wait: meter.createHistogram('jsonl_bridge.queue.wait', {
    unit: 's',
    description: 'How long a turn waited for a worker (placement included) before it was sent to one',
    advice: { explicitBucketBoundaries: WAIT_SECONDS },
  }),
  running: meter.createObservableGauge('jsonl_bridge.worker.runs', { unit: '{turn}', description: "Turns at work on this worker (runs' and chats')" }),
}));

/**
 * Reports the queue at each collection (the bridge's): `census` answers, or says nothing
 * (undefined: Redis did not answer in time), so a scrape never hangs on Redis. Returns how to stop.
 */
export function observeQueue(census: () => Promise<QueueCensus | undefined>): () => void {
  const { meter, jobs, workers, lag } = queue();
  const callback = async (result: BatchObservableResult) => {
    const now = await census();
    if (!now) return;
    for (const state of ['waiting', 'active', 'delayed'] as const) result.observe(jobs, now[state], { state });
    result.observe(workers, now.workersIdleSeconds.length);
    result.observe(lag, now.workersIdleSeconds.length ? Math.max(...now.workersIdleSeconds) : 0);
  };
  meter.addBatchObservableCallback(callback, [jobs, workers, lag]);
  return () => meter.removeBatchObservableCallback(callback, [jobs, workers, lag]);
}

/** A turn went to its worker `ms` after it was sent off. */
export function queueWaited(ms: number): void {
  queue().wait.record(Math.max(0, ms) / 1000);
}

/** Reports the turns at work on a worker now; returns how to stop. */
export function observeWorkerRuns(count: () => number): () => void {
  const { running } = queue();
  const callback = (result: { observe(value: number): void }) => result.observe(count());
  running.addCallback(callback);
  return () => running.removeCallback(callback);
}
