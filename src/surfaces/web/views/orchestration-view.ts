import { orchestrationName, type OrchestrationRecord } from '../../../work/orchestration/orchestration-record.ts';

/** An orchestration as the dashboard draws it: its steps as nodes, their dependencies as edges. */
export type OrchestrationView = ReturnType<typeof orchestrationView>;

export function orchestrationView(record: OrchestrationRecord, chatName = record.chatKey) {
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
