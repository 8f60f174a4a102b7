import { nanoid } from 'nanoid';
import type { AuditLog } from '../audit/audit-log.ts';
import { escapeHtml } from '../presentation/format/index.ts';
import { chatKey, type ButtonAnswer, type ButtonPress, type MessageRef, type Outbound, type RichText } from '../ports/transport.ts';
import { displayName, runAddress, type SubagentRunRecord } from '../subagents/record.ts';
import type { AutoApprove } from '../policy/tool-policy.ts';
import { ruleMatches } from '../policy/tool-rules.ts';

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
  holdTimeout: (runId: string) => () => void;
  /** The permission tool itself, as the CLI names it (`mcp__bridge__approve_tool`): a model calling it is refused. */
  ownTool: string;
  log?: (line: string) => void;
}

/** Questions one run may have open at once: more are denied, so a run cannot park itself on its chat. */
export const MAX_OPEN_QUESTIONS = 3;
/** An input longer than this (as JSON) is shown as a file before the question. */
const INLINE_INPUT_CHARS = 3000;

/**
 * Answers a run's permission prompts: auto-approves what its policy allows (time-boxed and
 * rate-limited), and asks the chat about the rest with Allow / Deny buttons. Every decision
 * is audited; silence is a denial.
 */
export class ApprovalBroker {
  private readonly pending = new Map<string, Pending>();
  /** Auto-approval times per run within the last minute, for the rate limit. */
  private readonly approvedAt = new Map<string, number[]>();
  /** Auto-approvals per run so far, for the per-run cap. */
  private readonly approvedCount = new Map<string, number>();

  constructor(private readonly options: ApprovalOptions) {}

  async decide(run: SubagentRunRecord, tool: string, input: Record<string, unknown>): Promise<PermissionDecision> {
    const { audit } = this.options;
    const base = { runId: run.runId, chat: run.requesterKey, tool, input };
    // Asking about the permission tool is the model calling it to pause its own timeout.
    if (tool === this.options.ownTool) {
      await audit.record({ ...base, event: 'tool_denied', decision: 'deny', by: 'policy', detail: 'the permission tool is not for the model' });
      return { behavior: 'deny', message: `${tool} answers the CLI's permission prompts; it is not a tool to call.` };
    }
    if (run.policy?.disallowedTools?.some((rule) => ruleMatches(rule, tool, input))) {
      await audit.record({ ...base, event: 'tool_denied', decision: 'deny', by: 'policy', detail: 'disallowed tool' });
      return { behavior: 'deny', message: `${tool} is not allowed for this run.` };
    }
    const auto = run.policy?.autoApprove;
    if (auto && auto.tools.some((rule) => ruleMatches(rule, tool, input)) && !auto.revoked && this.withinWindow(run, auto)) {
      const limited = this.rateLimited(run.runId, auto);
      if (limited) {
        await audit.record({ ...base, event: 'tool_denied', decision: 'deny', by: 'policy', detail: limited });
        return { behavior: 'deny', message: `Auto-approval paused: ${limited}. Slow down or wait.` };
      }
      await audit.record({ ...base, event: 'tool_auto_approved', decision: 'allow', by: 'policy' });
      return { behavior: 'allow', updatedInput: input };
    }
    if (this.waitingFor(run.runId) >= MAX_OPEN_QUESTIONS) {
      await audit.record({ ...base, event: 'tool_denied', decision: 'deny', by: 'policy', detail: `${MAX_OPEN_QUESTIONS} questions already open` });
      return { behavior: 'deny', message: `${MAX_OPEN_QUESTIONS} questions of this run are already waiting for the chat: denied. Wait for their answers.` };
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
    const full = JSON.stringify(input, null, 2);
    const asFile = full.length > INLINE_INPUT_CHARS;
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
        if (pending.ref) void out.edit(pending.ref, decidedText(run, tool, full, asFile, allowed, by, timeoutMs), { buttons: [] }).catch(() => {});
        resolve(decision);
      };
      const to = runAddress(run);
      const buttons = [
        [
          { text: '✅ Allow', data: `ap:${id}:allow` },
          { text: '⛔ Deny', data: `ap:${id}:deny` },
        ],
      ];
      // Allow approves the whole input, so the whole input is shown first: a long one as a file.
      const shown = asFile ? out.sendDocument(to, { filename: `${tool.replace(/\W+/g, '-')}-input-${id}.json`, content: full }) : Promise.resolve();
      shown
        .then(() => out.send(to, questionText(run, tool, full, asFile, timeoutMs), { buttons }))
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
    const count = this.approvedCount.get(runId) ?? 0;
    if (count >= auto.perRun) return `${auto.perRun} auto-approved calls is this run's limit`;
    const lastMinute = (this.approvedAt.get(runId) ?? []).filter((time) => now - time < 60_000);
    if (lastMinute.length >= auto.perMinute) return `${auto.perMinute} auto-approved calls a minute is the limit`;
    this.approvedAt.set(runId, [...lastMinute, now]);
    this.approvedCount.set(runId, count + 1);
    return undefined;
  }
}

/** The call as the chat sees it before deciding: the whole input, or where to find it. */
function describeCall(input: string, asFile: boolean): string {
  return asFile ? `Its whole input (${input.length.toLocaleString('en-US')} characters) is in the file above.` : input;
}

function questionText(run: SubagentRunRecord, tool: string, input: string, asFile: boolean, timeoutMs: number): RichText {
  const head = `🔐 #${run.number} ${displayName(run)} asks to use ${tool}`;
  const call = describeCall(input, asFile);
  const note = `No answer within ${Math.round(timeoutMs / 60_000) || 1} min means deny.`;
  return { html: `<b>${escapeHtml(head)}</b>\n<pre>${escapeHtml(call)}</pre>\n<i>${escapeHtml(note)}</i>`, plain: `${head}\n${call}\n${note}` };
}

function decidedText(run: SubagentRunRecord, tool: string, input: string, asFile: boolean, allowed: boolean, by: string, timeoutMs: number): RichText {
  const verdict = allowed ? `✅ Allowed by ${by}` : by === 'timeout' ? `⛔ Denied: no answer within ${Math.round(timeoutMs / 1000)} s` : `⛔ Denied by ${by}`;
  const head = `#${run.number} ${displayName(run)}: ${tool}`;
  const call = describeCall(input, asFile);
  return { html: `<b>${escapeHtml(head)}</b>\n<pre>${escapeHtml(call)}</pre>\n${escapeHtml(verdict)}`, plain: `${head}\n${call}\n${verdict}` };
}
