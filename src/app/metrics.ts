import type { ApprovalBroker } from '../work/approvals/approval-broker.ts';
import type { Bot } from '../chat/bot.ts';
import type { BridgeConfig } from './config.ts';
import { type QueueCensus, observeQueue } from '../services/telemetry/metrics-queue.ts';
import type { LivePool } from '../engine/session/live-pool.ts';
import type { Subagents } from '../work/subagents/subagents.ts';
import { observeApprovals } from '../services/telemetry/metrics-approvals.ts';
import { OTHER_MODEL } from '../services/telemetry/metrics-labels.ts';
import { observeProcesses, startSessionCounters } from '../services/telemetry/metrics-sessions.ts';
import { workEnded, workStarted, type WorkLabels } from '../services/telemetry/metrics-work.ts';

/** A turn's or run's labels: its CLI, and its model as the price table names it (a name typed in /model that the table does not know is `other`). */
export function workLabels(config: Pick<BridgeConfig, 'prices'>): (cli: string, model: string | undefined) => WorkLabels {
  return (cli, model) => ({ cli, model: config.prices.entryOf(model ?? config.prices.defaultModel(cli)) ?? OTHER_MODEL });
}

/**
 * The bridge's metrics, from what its parts already say: turns and runs as they start and
 * end, and what is counted where it is kept (live processes, questions waiting, the queue).
 * Returns how to stop observing (the app is shutting down).
 */
export function recordMetrics(parts: {
  config: Pick<BridgeConfig, 'prices' | 'adapters'>;
  bot: Bot;
  subagents: Subagents;
  live: LivePool;
  approvals: ApprovalBroker;
  /** The workers' side, with BRIDGE_REDIS_URL: its work at one look. */
  workers: { census(): Promise<QueueCensus | undefined> } | undefined;
}): () => void {
  const labels = workLabels(parts.config);
  startSessionCounters(parts.config.adapters.keys());
  parts.bot.turns.onStarted((chat) => workStarted('turn', labels(chat.record.cli, chat.record.model)));
  parts.bot.turns.onEnded((chat, outcome) => workEnded('turn', labels(chat.record.cli, chat.record.model), outcome.status, outcome.durationMs));
  parts.subagents.onStarted((run) => workStarted('run', labels(run.cli, run.model)));
  parts.subagents.onEnded((run) =>
    workEnded(
      'run',
      labels(run.cli, run.model),
      run.status,
      run.startedAt !== undefined && run.endedAt !== undefined ? run.endedAt - run.startedAt : undefined,
    ),
  );
  const stops = [
    observeProcesses(() => parts.live.counts()),
    observeApprovals(() => parts.approvals.waiting().map((question) => question.askedAt)),
    ...(parts.workers ? [observeQueue(() => parts.workers!.census())] : []),
  ];
  return () => stops.forEach((stop) => stop());
}
