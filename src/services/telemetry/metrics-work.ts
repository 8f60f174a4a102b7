import type { Attributes } from '@opentelemetry/api';
import type { Usage } from '../../kernel/protocols/events.ts';
import { instruments, TOKEN_COUNTS, WORK_SECONDS } from './metrics-instruments.ts';
import { outcomeOf } from './metrics-labels.ts';
import { providerOf } from './trace-attributes.ts';

/** A chat's turn, or a subagent run. */
export type Work = 'turn' | 'run';

/** What a turn or run is labelled with: its CLI and its model (as the price table names it, or `other`). */
export interface WorkLabels {
  cli: string;
  model: string;
}

const work = instruments((meter) => ({
  started: {
    turn: meter.createCounter('jsonl_bridge.turns.started', { unit: '{turn}', description: "Turns of chats' main sessions started, by CLI and model" }),
    run: meter.createCounter('jsonl_bridge.runs.started', { unit: '{run}', description: 'Subagent runs started, by CLI and model' }),
  },
  ended: {
    turn: meter.createCounter('jsonl_bridge.turns.ended', { unit: '{turn}', description: 'Turns ended, by outcome, CLI and model' }),
    run: meter.createCounter('jsonl_bridge.runs.ended', { unit: '{run}', description: 'Subagent runs ended, by outcome, CLI and model' }),
  },
  duration: {
    turn: meter.createHistogram('jsonl_bridge.turn.duration', {
      unit: 's',
      description: 'How long turns took, from their CLI starting to their end',
      advice: { explicitBucketBoundaries: WORK_SECONDS },
    }),
    run: meter.createHistogram('jsonl_bridge.run.duration', {
      unit: 's',
      description: 'How long subagent runs took, from their start to their end',
      advice: { explicitBucketBoundaries: WORK_SECONDS },
    }),
  },
  tokens: meter.createHistogram('gen_ai.client.token.usage', {
    unit: '{token}',
    description: 'Tokens a turn or run used, by type (input counts the cached prompt too, as the GenAI conventions do)',
    advice: { explicitBucketBoundaries: TOKEN_COUNTS },
  }),
  cost: meter.createCounter('jsonl_bridge.cost', { unit: 'USD', description: 'What turns and runs cost, in US dollars, by CLI and model' }),
}));

function attributes(kind: Work, labels: WorkLabels): Attributes {
  return { 'jsonl_bridge.work': kind, cli: labels.cli, 'gen_ai.request.model': labels.model, 'gen_ai.provider.name': providerOf(labels.model) ?? 'other' };
}

export function workStarted(kind: Work, labels: WorkLabels): void {
  work().started[kind].add(1, attributes(kind, labels));
}

/** `status`: the turn's or run's (completed, failed, stopped, timed_out, interrupted). */
export function workEnded(kind: Work, labels: WorkLabels, status: string, durationMs: number | undefined): void {
  const made = work();
  const withOutcome = { ...attributes(kind, labels), outcome: outcomeOf(status) };
  made.ended[kind].add(1, withOutcome);
  if (durationMs !== undefined && durationMs >= 0) made.duration[kind].record(durationMs / 1000, withOutcome);
}

/** What a turn or run used and cost, once it ended. */
export function workSpent(kind: Work, labels: WorkLabels, usage: Usage | undefined, costUsd: number | undefined): void {
  const made = work();
  const base = attributes(kind, labels);
  if (usage) {
    const tokens = { ...base, 'gen_ai.operation.name': 'invoke_agent' };
    const input = usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
    made.tokens.record(input, { ...tokens, 'gen_ai.token.type': 'input' });
    made.tokens.record(usage.outputTokens, { ...tokens, 'gen_ai.token.type': 'output' });
  }
  if (costUsd !== undefined && costUsd > 0) made.cost.add(costUsd, base);
}
