import { orchestrationName, type OrchestrationRecord, type StepRecord } from '../orchestration/orchestration-record.ts';
import { finalStep } from '../orchestration/graph.ts';
import { runtimeMs, type SubagentRunRecord } from '../subagents/record.ts';
import type { GraphModel, NodeState } from '../../services/pictures/graph-model.ts';
import { escapeMarkdown, truncate } from './format/index.ts';
import { code, plain, rich, titled, type RichText } from '../../kernel/rich/index.ts';
import { formatDuration } from './progress.ts';

const STEP_ICON: Record<StepRecord['status'], string> = { pending: '·', running: '⚙️', completed: '✓', failed: '✗', skipped: '⤼', stopped: '⏹' };
/** As its announcement says it: ✅ completed, ❌ failed or stopped (the word beside it says which). */
const DONE_ICON = { running: '🧭', completed: '✅', failed: '❌', stopped: '❌' } as const;

/** The message edited in place: every step, its run and state. */
export function orchestrationProgress(orchestration: OrchestrationRecord, runOf: (runId: string) => SubagentRunRecord | undefined, now = Date.now()): RichText {
  const elapsed = formatDuration((orchestration.endedAt ?? now) - orchestration.createdAt);
  const head = `${DONE_ICON[orchestration.status]} #${orchestration.number} ${orchestrationName(orchestration)} · ${orchestration.plan.strategy} · ${orchestration.status} · ${elapsed}`;
  const lines = orchestration.plan.steps.map((step) => {
    const state = orchestration.steps[step.id]!;
    const run = state.runId ? runOf(state.runId) : undefined;
    const where = run ? ` #${run.number}${run.status === 'queued' ? ' queued' : ''}` : '';
    const waits = state.status === 'pending' && step.depends_on.length ? ` (after ${step.depends_on.join(', ')})` : '';
    const why = state.error && state.status !== 'completed' ? `: ${truncate(state.error, 120)}` : '';
    return `${STEP_ICON[state.status]} ${step.id}${step.name !== step.id ? ` ${step.name}` : ''}${where}${waits}${why}`;
  });
  return titled(head, lines.join('\n'));
}

/** The one announcement at the end: each step's outcome, then the final step's result (Markdown). */
export function orchestrationAnnouncement(orchestration: OrchestrationRecord): { header: RichText; body: string } {
  const icon = orchestration.status === 'completed' ? '✅' : '❌';
  const title = `${icon} ${orchestrationName(orchestration)} (orchestration #${orchestration.number}) · ${formatDuration((orchestration.endedAt ?? Date.now()) - orchestration.createdAt)} · ${orchestration.status}${orchestration.stoppedBy ? ` by ${orchestration.stoppedBy}` : ''}`;
  const outcomes = orchestration.plan.steps.map((step) => {
    const state = orchestration.steps[step.id]!;
    return `- ${STEP_ICON[state.status]} **${escapeMarkdown(step.id)}**: ${state.status}${state.error && state.status !== 'completed' ? ` (${escapeMarkdown(truncate(state.error, 200))})` : ''}`;
  });
  const last = finalStep(orchestration.plan);
  const result = orchestration.steps[last]?.summary?.trim();
  const body = [
    outcomes.join('\n'),
    result ? `**Result of ${escapeMarkdown(last)}:**\n\n${result}` : `_The final step (${escapeMarkdown(last)}) has no result._`,
  ].join('\n\n');
  return { header: titled(title), body };
}

export function orchestrationList(orchestrations: OrchestrationRecord[]): RichText {
  if (!orchestrations.length) return rich`No orchestrations in this chat. Start one with ${code('/orchestrate')} and a plan.`;
  const lines = orchestrations.map((o) => {
    const states = Object.values(o.steps);
    const count = (status: StepRecord['status']) => states.filter((s) => s.status === status).length;
    return `#${o.number} ${orchestrationName(o)} · ${DONE_ICON[o.status]} ${o.status} · ${count('completed')}/${states.length} done, ${count('running')} running, ${count('failed')} failed · ${o.id}`;
  });
  return titled('Orchestrations', lines.join('\n'));
}

const NODE_STATE: Record<StepRecord['status'], NodeState> = {
  pending: 'waiting',
  running: 'running',
  completed: 'done',
  failed: 'failed',
  skipped: 'skipped',
  stopped: 'stopped',
};

/**
 * The orchestration as a graph to draw: a node per step (its name, its state, its run's
 * number and, once it has ended, how long it ran), an edge per dependency. The picture in the
 * chat and the dashboard draw it the same way. A running step shows no clock, so the picture
 * changes only when a step does.
 */
export function orchestrationGraph(orchestration: OrchestrationRecord, runOf: (runId: string) => SubagentRunRecord | undefined = () => undefined): GraphModel {
  return {
    title: orchestrationSummary(orchestration),
    nodes: orchestration.plan.steps.map((step) => {
      const state: Partial<StepRecord> & Pick<StepRecord, 'status'> = orchestration.steps[step.id] ?? { status: 'pending' };
      const run = state.runId ? runOf(state.runId) : undefined;
      const ended = state.status !== 'pending' && state.status !== 'running';
      const detail = [
        run ? `#${run.number}` : undefined,
        run?.status === 'queued' ? 'queued' : undefined,
        run && ended && run.startedAt ? formatDuration(runtimeMs(run)) : undefined,
      ].filter(Boolean);
      return { id: step.id, label: step.name, state: NODE_STATE[state.status], ...(detail.length ? { detail: detail.join(' · ') } : {}) };
    }),
    edges: orchestration.plan.steps.flatMap((step) => step.depends_on.map((dep) => ({ from: dep, to: step.id }))),
  };
}

/** One line: the orchestration's number and name, and how far it is (the picture's title and caption). */
export function orchestrationSummary(orchestration: OrchestrationRecord): string {
  const states = Object.values(orchestration.steps);
  const count = (status: StepRecord['status']) => states.filter((s) => s.status === status).length;
  const failed = count('failed');
  const tally = [`${count('completed')}/${orchestration.plan.steps.length} done`, failed ? `${failed} failed` : undefined].filter(Boolean).join(', ');
  const end = orchestration.status === 'running' ? '' : ` · ${orchestration.status}`;
  return `#${orchestration.number} ${orchestrationName(orchestration)} · ${tally}${end}`;
}

/** The answer to stopping a plan, in the chat or from the dashboard. */
export function stoppingOrchestrationText(record: OrchestrationRecord): RichText {
  return plain(`⏹ Stopping orchestration #${record.number} ${orchestrationName(record)}.`);
}
