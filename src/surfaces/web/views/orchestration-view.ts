import { orchestrationName, type OrchestrationRecord, type OrchestrationStatus } from '../../../work/orchestration/orchestration-record.ts';
import type { StepStatus } from '../../../work/orchestration/state.ts';

/** An orchestration as the dashboard draws it: its steps as nodes, their dependencies as edges. */
export interface OrchestrationView {
  id: string;
  number: number;
  chat: string;
  chatName: string;
  name: string;
  status: OrchestrationStatus;
  createdAt: number;
  endedAt?: number;
  steps: { id: string; name: string; status: StepStatus; dependsOn: string[]; runId?: string; runNumber?: number; error?: string }[];
}

export function orchestrationView(record: OrchestrationRecord, chatName = record.chatKey): OrchestrationView {
  return {
    id: record.id,
    number: record.number,
    chat: record.chatKey,
    chatName,
    name: orchestrationName(record),
    status: record.status,
    createdAt: record.createdAt,
    endedAt: record.endedAt,
    steps: record.plan.steps.map((step) => {
      const state = record.steps[step.id];
      return {
        id: step.id,
        name: step.name,
        status: state?.status ?? 'pending',
        dependsOn: step.depends_on,
        runId: state?.runId,
        runNumber: state?.runNumber,
        ...(state?.error ? { error: state.error } : {}),
      };
    }),
  };
}
