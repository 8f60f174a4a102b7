import type { AgentSpans } from '../../services/telemetry/traced-agent.ts';
import type { RunEnding } from './execution.ts';
import type { SubagentRunRecord } from './record.ts';

/** The run as its spans describe it: its CLI, model, chat and id, never its task; `provider`: whose models its CLI runs (its manifest says). */
export function tracedRun(
  run: Pick<SubagentRunRecord, 'runId' | 'cli' | 'model' | 'requesterKey' | 'childSessionId' | 'resumes'>,
  provider: string | undefined,
) {
  return {
    work: 'run' as const,
    cli: run.cli,
    provider,
    model: run.model,
    ...(run.resumes && run.childSessionId ? { conversationId: run.childSessionId } : {}),
    ids: { chat: run.requesterKey, run: run.runId },
  };
}

/** How a run's ending reads on its span: its CLI's outcome, or in the bridge's few words why it had none (never its message, which may name a path). */
export function traceEnding(spans: AgentSpans, ending: RunEnding): void {
  if ('outcome' in ending) spans.outcome(ending.outcome);
  else spans.failed('not_run', 'the run could not start', 'failed');
}
