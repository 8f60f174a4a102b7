import type { AuditLog } from '../../kernel/audit/audit-log.ts';
import type { AgentEvent } from '../../kernel/protocols/events.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { RunEnding, RunReports } from './execution.ts';
import type { SubagentRunRecord } from './record.ts';
import type { RunLog } from './run-log.ts';
import type { RunStore } from './run-store.ts';
import type { AgentSpans } from '../../services/telemetry/traced-agent.ts';

/** What the model answering looks like: after it, a CLI's retries are a new story. */
const MODEL_ANSWERED = new Set<AgentEvent['type']>(['text', 'usage', 'tool_start', 'tool_end', 'result']);

/** Where runs' reports go beside their logs: their records, the audit trail, the bridge's log, and who hears of a host refused or a CLI stuck. */
export interface ReportParts {
  store: RunStore;
  audit: AuditLog;
  log: Log;
  /** Its sandbox refused a host: besides the audit trail, said in its chat (once per host and run). */
  onBlocked?: (run: SubagentRunRecord, host: string, why: string) => void;
  /** Its CLI keeps saying it is not getting through to its model API (`words`: its last): once per run. */
  onStuck?: (run: SubagentRunRecord, words: string) => void;
}

/**
 * What a running run reports goes to its record, its log, the audit trail and its spans (when
 * it is traced). A note on its record that cannot be written (the disk is full) is logged: the
 * run goes on, and its ending is written whole.
 */
export function runReports(run: SubagentRunRecord, log: RunLog, parts: ReportParts, spans?: AgentSpans): RunReports {
  const { store, audit } = parts;
  // Once per host for the whole run: each of its turns is a process of its own, with its own proxy.
  const told = new Set<string>();
  // Its CLI's words about not getting through (retries, reconnects) since the model last answered.
  let troubles = 0;
  let toldStuck = false;
  const current = () => store.get(run.runId) ?? run;
  const note = (patch: Partial<SubagentRunRecord>, what: string) =>
    void store
      .save({ ...current(), ...patch })
      .catch((error: Error) => parts.log.warn({ runId: run.runId }, `could not note the run's ${what}: ${error.message}`));
  return {
    onLine: (raw) => log.write(raw),
    // Said twice with no answer between, it is no passing hiccup: once in its chat, not only in its log.
    onEvent: (event) => {
      if (event.type !== 'error') troubles = MODEL_ANSWERED.has(event.type) ? 0 : troubles;
      else if (++troubles >= 2 && !toldStuck) {
        toldStuck = true;
        parts.onStuck?.(current(), event.message);
      }
      spans?.observe(event);
    },
    onSession: (sessionId) => {
      spans?.conversation(sessionId);
      note({ childSessionId: sessionId }, 'session');
    },
    // Every tool call is in the audit trail; approvals add their own decision entries.
    onToolCall: (tool, input) => {
      // Once: a run that acted is not simply run again after a restart.
      if (!current().toolCalled) note({ toolCalled: true }, 'first tool call');
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
    onWorker: (worker) => note({ worker }, 'worker'),
    onBlocked: (host, why) => {
      if (told.has(host)) return;
      told.add(host);
      void audit.record({ event: 'blocked', runId: run.runId, chat: run.requesterKey, detail: `${host}: ${why}` });
      parts.onBlocked?.(current(), host, why);
    },
    onHandover: (cli) => {
      spans?.note('handed over');
      note({ cli, childSessionId: undefined }, 'new CLI');
    },
  };
}

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
