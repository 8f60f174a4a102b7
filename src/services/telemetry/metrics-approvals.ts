import type { BatchObservableResult } from '@opentelemetry/api';
import { instruments } from './metrics-instruments.ts';

const approvals = instruments((meter) => ({
  meter,
  waiting: meter.createObservableGauge('jsonl_bridge.approvals.waiting', {
    unit: '{question}',
    description: "Questions and tool approvals waiting for a person's answer",
  }),
  oldest: meter.createObservableGauge('jsonl_bridge.approvals.oldest_age', {
    unit: 's',
    description: 'How long the oldest waiting question or approval has waited (0: none waits)',
  }),
}));

/** Reports what waits for a person at each collection, from when each was asked; returns how to stop. */
export function observeApprovals(askedAt: () => readonly number[], now: () => number = Date.now): () => void {
  const { meter, waiting, oldest } = approvals();
  // Both from one look at the broker: the count and the age always agree.
  const callback = (result: BatchObservableResult) => {
    const times = askedAt();
    result.observe(waiting, times.length);
    result.observe(oldest, times.length ? Math.max(0, (now() - Math.min(...times)) / 1000) : 0);
  };
  meter.addBatchObservableCallback(callback, [waiting, oldest]);
  return () => meter.removeBatchObservableCallback(callback, [waiting, oldest]);
}
