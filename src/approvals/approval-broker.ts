import { nanoid } from 'nanoid';
import type { AuditLog } from '../audit/audit-log.ts';
import { escapeHtml, truncate } from '../presentation/format/index.ts';
import { toolSummary } from '../presentation/tool-summary.ts';
import { chatKey, type ButtonAnswer, type ButtonPress, type MessageRef, type Outbound, type RichText } from '../ports/transport.ts';
import { displayName, runAddress, type SubagentRunRecord } from '../subagents/record.ts';
import type { AutoApprove } from '../policy/tool-policy.ts';

/** What Claude Code's --permission-prompt-tool expects back (as JSON text). */
export type PermissionDecision = { behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string };

interface Pending {
  run: SubagentRunRecord;
  tool: string;
  input: Record<string, unknown>;
  ref?: MessageRef;
  resolve(decision: PermissionDecision, by: string): void;
}

export interface ApprovalOptions {
  out: Outbound;
  audit: AuditLog;
  /** No answer within this long means deny. */
  timeoutMs: number;
  /** Pauses the run's own timeout while it waits for a person. */
  holdTimeout(runId: string): () => void;
  log?: (line: string) => void;
}

/**
 * Answers a run's permission prompts: auto-approves what its policy allows (time-boxed and
 * rate-limited), and asks the chat about the rest with Allow / Deny buttons. Every decision
 * is audited; silence is a denial.
 */
export class ApprovalBroker {
  private readonly pending = new Map<string, Pending>();
  /** Auto-approval times per run, for the rate limits. */
  private readonly approvedAt = new Map<string, number[]>();

  constructor(private readonly options: ApprovalOptions) {}

  async decide(run: SubagentRunRecord, tool: string, input: Record<string, unknown>): Promise<PermissionDecision> {
    const { audit } = this.options;
    const base = { runId: run.runId, chat: run.requesterKey, tool, input };
    if (run.policy?.disallowedTools?.includes(tool)) {
      await audit.record({ ...base, event: 'tool_denied', decision: 'deny', by: 'policy', detail: 'disallowed tool' });
      return { behavior: 'deny', message: `${tool} is not allowed for this run.` };
    }
    const auto = run.policy?.autoApprove;
    if (auto && auto.tools.includes(tool) && !auto.revoked && this.withinWindow(run, auto)) {
      const limited = this.rateLimited(run.runId, auto);
      if (limited) {
        await audit.record({ ...base, event: 'tool_denied', decision: 'deny', by: 'policy', detail: limited });
        return { behavior: 'deny', message: `Auto-approval paused: ${limited}. Slow down or wait.` };
      }
      await audit.record({ ...base, event: 'tool_auto_approved', decision: 'allow', by: 'policy' });
      return { behavior: 'allow', updatedInput: input };
    }
    return this.ask(run, tool, input);
  }

  /** A press on Allow or Deny: `ap:<id>:allow|deny`. */
  async answer(press: ButtonPress, payload: string): Promise<ButtonAnswer> {
    const [id, choice] = payload.split(':');
    const pending = this.pending.get(id ?? '');
    if (!pending) return { text: 'This request was already answered.' };
    if (pending.run.requesterKey !== chatKey(press.address)) return { text: 'This request belongs to another chat.' };
    const by = press.user.name ?? String(press.user.id);
    pending.resolve(
      choice === 'allow' ? { behavior: 'allow', updatedInput: pending.input } : { behavior: 'deny', message: `Denied by ${by} from the chat.` },
      by,
    );
    return { text: choice === 'allow' ? '✅ Allowed' : '⛔ Denied' };
  }

  /** A run that ended (or was stopped) takes its open questions with it. */
  cancel(runId: string): void {
    for (const pending of this.pending.values()) {
      if (pending.run.runId === runId) pending.resolve({ behavior: 'deny', message: 'The run ended.' }, 'the bridge');
    }
  }

  waitingFor(runId: string): number {
    return [...this.pending.values()].filter((p) => p.run.runId === runId).length;
  }

  private ask(run: SubagentRunRecord, tool: string, input: Record<string, unknown>): Promise<PermissionDecision> {
    const { out, audit, timeoutMs } = this.options;
    const id = nanoid(10);
    const release = this.options.holdTimeout(run.runId);
    return new Promise<PermissionDecision>((resolve) => {
      const timer = setTimeout(
        () => settle({ behavior: 'deny', message: `No answer within ${Math.round(timeoutMs / 1000)} s: denied.` }, 'timeout'),
        timeoutMs,
      );
      const pending: Pending = { run, tool, input, resolve: (decision, by) => settle(decision, by) };
      this.pending.set(id, pending);
      const settle = (decision: PermissionDecision, by: string) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        release();
        const allowed = decision.behavior === 'allow';
        void audit.record({
          runId: run.runId,
          chat: run.requesterKey,
          tool,
          input,
          event: allowed ? 'tool_approved' : 'tool_denied',
          decision: allowed ? 'allow' : 'deny',
          by,
        });
        if (pending.ref) void out.edit(pending.ref, decidedText(run, tool, input, allowed, by, timeoutMs), { buttons: [] }).catch(() => {});
        resolve(decision);
      };
      const to = runAddress(run);
      out
        .send(to, questionText(run, tool, input, timeoutMs), {
          buttons: [
            [
              { text: '✅ Allow', data: `ap:${id}:allow` },
              { text: '⛔ Deny', data: `ap:${id}:deny` },
            ],
          ],
        })
        .then((ref) => (pending.ref = ref))
        .catch((error) => {
          this.options.log?.(`asking chat ${run.requesterKey} for approval failed: ${(error as Error).message}`);
          settle({ behavior: 'deny', message: 'The chat could not be asked: denied.' }, 'the bridge');
        });
    });
  }

  private withinWindow(run: SubagentRunRecord, auto: AutoApprove): boolean {
    return Date.now() - (run.startedAt ?? Date.now()) < auto.maxDurationSeconds * 1000;
  }

  /** The reason auto-approval must wait, or undefined; records the approval when there is none. */
  private rateLimited(runId: string, auto: AutoApprove): string | undefined {
    const now = Date.now();
    const times = this.approvedAt.get(runId) ?? [];
    if (times.length >= auto.perRun) return `${auto.perRun} auto-approved calls is this run's limit`;
    const lastMinute = times.filter((time) => now - time < 60_000).length;
    if (lastMinute >= auto.perMinute) return `${auto.perMinute} auto-approved calls a minute is the limit`;
    times.push(now);
    this.approvedAt.set(runId, times.length > auto.perMinute * 2 ? times.slice(-auto.perMinute) : times);
    return undefined;
  }
}

function describeCall(tool: string, input: Record<string, unknown>): string {
  return truncate(toolSummary(tool, input) || JSON.stringify(input), 600);
}

function questionText(run: SubagentRunRecord, tool: string, input: Record<string, unknown>, timeoutMs: number): RichText {
  const head = `🔐 #${run.number} ${displayName(run)} asks to use ${tool}`;
  const call = describeCall(tool, input);
  const note = `No answer within ${Math.round(timeoutMs / 60_000) || 1} min means deny.`;
  return { html: `<b>${escapeHtml(head)}</b>\n<pre>${escapeHtml(call)}</pre>\n<i>${escapeHtml(note)}</i>`, plain: `${head}\n${call}\n${note}` };
}

function decidedText(run: SubagentRunRecord, tool: string, input: Record<string, unknown>, allowed: boolean, by: string, timeoutMs: number): RichText {
  const verdict = allowed ? `✅ Allowed by ${by}` : by === 'timeout' ? `⛔ Denied: no answer within ${Math.round(timeoutMs / 1000)} s` : `⛔ Denied by ${by}`;
  const head = `#${run.number} ${displayName(run)}: ${tool}`;
  const call = describeCall(tool, input);
  return { html: `<b>${escapeHtml(head)}</b>\n<pre>${escapeHtml(call)}</pre>\n${escapeHtml(verdict)}`, plain: `${head}\n${call}\n${verdict}` };
}
