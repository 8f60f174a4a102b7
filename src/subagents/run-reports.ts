import type { AuditLog } from '../audit/audit-log.ts';
import type { RunReports } from './execution.ts';
import type { SubagentRunRecord } from './record.ts';
import type { RunLog } from './run-log.ts';
import type { RunStore } from './run-store.ts';

/** What a running run reports goes to its record, its log and the audit trail. */
export function runReports(run: SubagentRunRecord, log: RunLog, store: RunStore, audit: AuditLog): RunReports {
  const current = () => store.get(run.runId) ?? run;
  return {
    onLine: (raw) => log.write(raw),
    onSession: (sessionId) => void store.save({ ...current(), childSessionId: sessionId }),
    // Every tool call is in the audit trail; approvals add their own decision entries.
    onToolCall: (tool, input) => {
      // Once: a run that acted is not simply run again after a restart.
      if (!current().toolCalled) void store.save({ ...current(), toolCalled: true });
      void audit.record({
        event: 'tool_call',
        runId: run.runId,
        chat: run.requesterKey,
        tool,
        input,
        decision: run.policy?.approvals ? 'asked the bridge if needed' : 'cli permissions',
      });
    },
    onWorktree: (worktree) => store.save({ ...current(), worktree }),
    onWorker: (worker) => void store.save({ ...current(), worker }),
    onHandover: (cli) => void store.save({ ...current(), cli, childSessionId: undefined }),
  };
}
