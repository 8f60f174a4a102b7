import type { BatchObservableResult } from '@opentelemetry/api';
import { instruments, WAIT_SECONDS } from './metrics-instruments.ts';

/** What the queue's Redis says at one look: jobs by state, and each worker's freshest sign of life. */
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
    description: 'Runs in the queue, by state (waiting for a worker, active, delayed)',
  }),
  workers: meter.createObservableGauge('jsonl_bridge.workers.connected', { unit: '{worker}', description: "Workers connected to the queue's Redis" }),
  lag: meter.createObservableGauge('jsonl_bridge.worker.lag', {
    unit: 's',
    description: 'The longest any connected worker has been silent to Redis (a healthy one speaks every few seconds)',
  }),
  wait: meter.createHistogram('jsonl_bridge.queue.wait', {
    unit: 's',
    description: 'How long a run waited in the queue before a worker took it',
    advice: { explicitBucketBoundaries: WAIT_SECONDS },
  }),
  running: meter.createObservableGauge('jsonl_bridge.worker.runs', { unit: '{run}', description: 'Runs this worker is executing' }),
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

/** A worker took a run that was queued `ms` ago. */
export function queueWaited(ms: number): void {
  queue().wait.record(Math.max(0, ms) / 1000);
}

/** Reports the runs a worker executes now; returns how to stop. */
export function observeWorkerRuns(count: () => number): () => void {
  const { running } = queue();
  const callback = (result: { observe(value: number): void }) => result.observe(count());
  running.addCallback(callback);
  return () => running.removeCallback(callback);
}
