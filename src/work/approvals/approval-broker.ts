import { nanoid } from 'nanoid';
import type { AuditEntry, AuditLog } from '../../kernel/audit/audit-log.ts';
import { bold, lines } from '../../kernel/rich/index.ts';
import {
  chatKey,
  userKey,
  type ButtonAnswer,
  type ButtonPress,
  type ChatUser,
  type MessageRef,
  type Outbound,
  type RichText,
} from '../../kernel/ports/chat.ts';
import type { AutoApprove } from '../../kernel/policy/tool-policy.ts';
import { ruleMatches } from '../../kernel/policy/tool-rules.ts';
import { describeRule, ruleFor, type ApprovalRule } from '../../kernel/policy/approval-rules.ts';
import type { PermissionDecision } from '../../kernel/protocols/events.ts';
import type { Asker } from './asker.ts';
import { approvalCount, decidedText, questionButtons, questionText, type QuestionAnswer } from './question.ts';
import { sameHolder, SessionGrants } from './session-grants.ts';
import type { MayAnswer } from './who-may-answer.ts';
import type { Log } from '../../kernel/log/logger.ts';

interface Pending {
  asker: Asker;
  tool: string;
  input: Record<string, unknown>;
  askedAt: number;
  ref?: MessageRef;
  /** A rule of the tool policy needing several people's Allow, and who gave theirs so far (`key`: userKey). */
  rule?: ApprovalRule;
  approvedBy: { key: string; name: string }[];
  /** The question as it is shown now (it changes as approvals come). */
  text?: RichText;
  /** `detail` says more than who decided (for how long an Allow holds). */
  resolve(decision: PermissionDecision, by: string, detail?: string): void;
}

export interface ApprovalOptions {
  out: Outbound;
  audit: AuditLog;
  /** No answer within this long means deny. */
  timeoutMs: number;
  /**
   * The bridge's own MCP tools, as the CLI names them (`mcp__bridge__`): they keep their own
   * checks (a run spawned by an asking session asks too), so they are not asked about; the
   * permission tool itself is refused, since a model calling it would only pause its timeout.
   */
  ownServerPrefix: string;
  ownTool: string;
  /** Who may answer a chat's questions (its people, and the owners), however the answer comes. */
  mayAnswer: MayAnswer;
  /** The operator's tool policy (tool-policy.json): calls that need several people's Allow, in every mode. */
  rules?: readonly ApprovalRule[];
  log?: Log;
}

/** A question waiting for Allow or Deny, as the dashboard shows it. */
export interface WaitingQuestion extends Pick<Asker, 'chatKey' | 'runId' | 'title'>, Pick<Pending, 'tool' | 'input' | 'askedAt'> {
  id: string;
  /** What "Allow <tool> for this …" would cover, where it may be given (not to a turn nobody typed, nor under a rule needing several people). */
  grant?: 'run' | 'session';
  /** Under a rule needing several people's Allow: the rule, how many, and who has approved so far. */
  approvals?: { rule: string; needed: number; by: string[] };
}

/** Questions one asker may have open at once: more are denied, so a run cannot park itself on its chat. */
export const MAX_OPEN_QUESTIONS = 3;

/** An input longer than this (as JSON) is shown as a file before the question. */
const INLINE_INPUT_CHARS = 3000;

/**
 * Answers permission prompts of runs and main sessions: auto-approves what a run's policy
 * allows (time-boxed and rate-limited) and what a person allowed for the session, and asks
 * the chat about the rest with Allow / Deny buttons. Every decision is audited; silence is a
 * denial.
 */
export class ApprovalBroker {
  private readonly pending = new Map<string, Pending>();
  /** Auto-approval times per asker within the last minute, for the rate limit. */
  private readonly approvedAt = new Map<string, number[]>();
  /** Auto-approvals per asker so far, for the per-run cap. */
  private readonly approvedCount = new Map<string, number>();
  /** Tools allowed for the rest of a run, or of a session for one person's turns. */
  private readonly grants = new SessionGrants();
  private readonly changes = new Set<() => void>();

  constructor(private readonly options: ApprovalOptions) {}

  /** The questions waiting for a person now, oldest first: what the dashboard lists. */
  waiting(): WaitingQuestion[] {
    return [...this.pending.entries()].map(([id, p]) => ({
      id,
      chatKey: p.asker.chatKey,
      runId: p.asker.runId,
      title: p.asker.title,
      tool: p.tool,
      input: p.input,
      askedAt: p.askedAt,
      ...(p.asker.grantHolder && !p.rule ? { grant: p.asker.lifetime } : {}),
      ...(p.rule ? { approvals: { rule: describeRule(p.rule), needed: p.rule.approvals, by: p.approvedBy.map((a) => a.name) } } : {}),
    }));
  }

  /** Calls `listener` whenever a question is asked or settled; returns the unsubscribe. */
  onChanged(listener: () => void): () => void {
    this.changes.add(listener);
    return () => this.changes.delete(listener);
  }

  /** An answer given elsewhere than the question's buttons (the dashboard), by an allowed person, as if pressed in its chat. */
  answerAs(id: string, choice: QuestionAnswer['choice'], user: ChatUser): Promise<ButtonAnswer> {
    const pending = this.pending.get(id);
    if (!pending) return Promise.resolve({ text: 'This request was already answered.' });
    return this.answer({ address: pending.asker.address, user, data: '', messageId: pending.ref?.messageId ?? '' }, { id, choice });
  }

  /**
   * Decides a call: `bypass` work runs every call no rule of the tool policy covers without
   * asking; a call a rule covers is asked in every mode, of as many people as the rule says,
   * and no grant or auto-approval reaches it.
   */
  async decide(asker: Asker, tool: string, input: Record<string, unknown>, mode: 'ask' | 'bypass' = 'ask'): Promise<PermissionDecision> {
    // Recorded, not waited for: the audit log writes in batches, and a decision need not wait on the disk.
    const deny = (message: string, detail: string): PermissionDecision => {
      void this.audit(asker, tool, input, { event: 'tool_denied', decision: 'deny', by: 'policy', detail });
      return { behavior: 'deny', message };
    };
    const allow = (by: string, detail?: string): PermissionDecision => {
      void this.audit(asker, tool, input, { event: 'tool_auto_approved', decision: 'allow', by, ...(detail ? { detail } : {}) });
      return { behavior: 'allow', updatedInput: input };
    };
    const tooMany = () =>
      deny(`${MAX_OPEN_QUESTIONS} questions are already waiting for the chat: denied. Wait for their answers.`, `${MAX_OPEN_QUESTIONS} questions already open`);
    if (tool === this.options.ownTool)
      return deny(`${tool} answers the CLI's permission prompts; it is not a tool to call.`, 'the permission tool is not for the model');
    if (asker.policy?.disallowedTools?.some((rule) => ruleMatches(rule, tool, input))) return deny(`${tool} is not allowed for this run.`, 'disallowed tool');
    if (tool.startsWith(this.options.ownServerPrefix)) return allow('bridge', "the bridge's own tool, under its own checks");
    // The tool policy's rule the call falls under (the one needing the most approvals), if any.
    const rule = ruleFor(this.options.rules ?? [], { tool, input, agent: asker.agent });
    // A run asking only for the tool policy's sake bypasses the rest.
    if (!rule && (mode === 'bypass' || asker.policy?.ruledOnly)) return { behavior: 'allow', updatedInput: input };
    if (rule) return this.waitingFor(asker.id) >= MAX_OPEN_QUESTIONS ? tooMany() : this.ask(asker, tool, input, rule);
    if (asker.grantHolder && this.grants.allows(asker.id, asker.grantHolder, tool)) return allow('session', grantDetail(asker));
    const auto = asker.policy?.autoApprove;
    if (auto && auto.tools.some((rule) => ruleMatches(rule, tool, input)) && !auto.revoked && withinWindow(asker, auto)) {
      const limited = this.rateLimited(asker.id, auto);
      if (limited) return deny(`Auto-approval paused: ${limited}. Slow down or wait.`, limited);
      return allow('policy');
    }
    if (this.waitingFor(asker.id) >= MAX_OPEN_QUESTIONS) return tooMany();
    return this.ask(asker, tool, input);
  }

  /** A press on one of a question's buttons (QUESTION). */
  async answer(press: ButtonPress, { id, choice }: QuestionAnswer): Promise<ButtonAnswer> {
    const pending = this.pending.get(id);
    if (!pending) return { text: 'This request was already answered.' };
    if (pending.asker.chatKey !== chatKey(press.address)) return { text: 'This request belongs to another chat.' };
    if (!(await this.options.mayAnswer(pending.asker.address, press.user))) return { text: '⛔ Only people of this chat may answer it.', alert: true };
    // The look-up may have waited: the question may have been settled meanwhile.
    if (this.pending.get(id) !== pending) return { text: 'This request was already answered.' };
    const by = press.user.name ?? String(press.user.id);
    if (choice === 'deny') {
      pending.resolve({ behavior: 'deny', message: `Denied by ${by} from the chat.` }, by);
      return { text: '⛔ Denied' };
    }
    // Under a rule needing several people, every Allow (whatever its button) is one person's, once.
    if (pending.rule) return this.approveOnce(id, pending, press, by);
    if (choice === 'always') {
      const { asker, tool } = pending;
      const holder = asker.grantHolder;
      if (!holder) {
        // A turn nobody typed is offered no grant (a button from elsewhere, the dashboard's, may still say so): this once only.
        pending.resolve({ behavior: 'allow', updatedInput: pending.input }, by, NO_GRANT);
        return { text: `✅ Allowed ${NO_GRANT}` };
      }
      this.grants.add(asker.id, holder, tool);
      // The same tool's other open questions of the same holder are answered by the same press.
      const detail = `for this ${asker.lifetime}`;
      for (const other of this.open(asker.id))
        if (other.tool === tool && sameHolder(other.asker.grantHolder, holder)) other.resolve({ behavior: 'allow', updatedInput: other.input }, by, detail);
      return { text: `✅ ${tool} allowed for this ${asker.lifetime}` };
    }
    pending.resolve({ behavior: 'allow', updatedInput: pending.input }, by);
    return { text: '✅ Allowed' };
  }

  /** One person's Allow of a question needing several: counted once, never the starter's as the last, and the call runs once enough have come. */
  private approveOnce(id: string, pending: Pending, press: ButtonPress, by: string): ButtonAnswer {
    const { rule, approvedBy, asker } = pending;
    const needed = rule!.approvals;
    const key = userKey(asker.address.transport, press.user);
    if (approvedBy.some((approval) => approval.key === key))
      return {
        text: `You approved this already: it needs ${needed - approvedBy.length} more ${needed - approvedBy.length === 1 ? "person's" : "people's"} Allow.`,
        alert: true,
      };
    if (key === asker.startedBy && approvedBy.length + 1 === needed) {
      // A try at approving one's own work is worth a line in the trail.
      void this.audit(asker, pending.tool, pending.input, {
        event: 'tool_approval',
        decision: `refused: started the work (${approvedBy.length} of ${needed})`,
        by,
        detail: `rule ${describeRule(rule!)}`,
      });
      return {
        text: `⛔ You started this work, so your Allow cannot be the last of the ${needed} it needs: another person of this chat must approve it.`,
        alert: true,
      };
    }
    approvedBy.push({ key, name: by });
    const count = `${approvedBy.length} of ${needed}`;
    void this.audit(asker, pending.tool, pending.input, { event: 'tool_approval', decision: `approved ${count}`, by, detail: `rule ${describeRule(rule!)}` });
    if (approvedBy.length >= needed) {
      const names = approvedBy.map((approval) => approval.name);
      pending.resolve({ behavior: 'allow', updatedInput: pending.input }, names.join(', '), `(${count}, rule ${describeRule(rule!)})`);
      return { text: `✅ Allowed: ${count} approved` };
    }
    const { out } = this.options;
    if (pending.ref && pending.text)
      void out
        .edit(pending.ref, lines([pending.text, bold(approvalCount(pending))]), { buttons: questionButtons(id, asker, pending.tool, rule), urgent: true })
        .catch(() => {});
    for (const listener of this.changes) listener();
    return { text: `✅ ${approvalCount(pending)}: another person must approve it too` };
  }

  /** An asker's turn or run ended: its open questions go with it (its allowances stay while it lives). */
  cancel(askerId: string, reason = 'The run ended.'): void {
    for (const pending of this.open(askerId)) pending.resolve({ behavior: 'deny', message: reason }, 'the bridge');
  }

  /** An asker is gone for good (its run ended, its session replaced): nothing of it is kept. */
  forget(askerId: string): void {
    this.cancel(askerId);
    this.grants.drop(askerId);
    this.approvedAt.delete(askerId);
    this.approvedCount.delete(askerId);
  }

  waitingFor(askerId: string): number {
    return this.open(askerId).length;
  }

  private open(askerId: string): Pending[] {
    return [...this.pending.values()].filter((p) => p.asker.id === askerId);
  }

  private changed(asker: Asker): void {
    asker.onWaiting?.(this.open(asker.id).map((p) => p.tool));
    for (const listener of this.changes) listener();
  }

  private audit(asker: Asker, tool: string, input: Record<string, unknown>, entry: Pick<AuditEntry, 'event' | 'decision' | 'by' | 'detail'>) {
    return this.options.audit.record({ ...(asker.runId ? { runId: asker.runId } : {}), chat: asker.chatKey, tool, input, ...entry });
  }

  private ask(asker: Asker, tool: string, input: Record<string, unknown>, rule?: ApprovalRule): Promise<PermissionDecision> {
    const { out, timeoutMs } = this.options;
    const id = nanoid(10);
    const release = asker.hold?.() ?? (() => {});
    const full = JSON.stringify(input, null, 2);
    const asFile = full.length > INLINE_INPUT_CHARS;
    return new Promise<PermissionDecision>((resolve) => {
      const seconds = Math.round(timeoutMs / 1000);
      const timer = setTimeout(() => {
        const message = rule ? `Not enough approvals within ${seconds} s (${approvalCount(pending)}): denied.` : `No answer within ${seconds} s: denied.`;
        settle({ behavior: 'deny', message }, 'timeout');
      }, timeoutMs);
      const pending: Pending = {
        asker,
        tool,
        input,
        askedAt: Date.now(),
        rule,
        approvedBy: [],
        resolve: (decision, by, detail) => settle(decision, by, detail),
      };
      this.pending.set(id, pending);
      this.changed(asker);
      const settle = (decision: PermissionDecision, by: string, detail?: string) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        release();
        this.changed(asker);
        const allowed = decision.behavior === 'allow';
        void this.audit(asker, tool, input, {
          event: allowed ? 'tool_approved' : 'tool_denied',
          decision: allowed ? 'allow' : 'deny',
          by,
          ...(detail ? { detail } : {}),
        });
        const verdict = allowed
          ? `✅ Allowed by ${by}${detail ? ` ${detail}` : ''}`
          : by === 'timeout'
            ? rule
              ? `⛔ Denied: not enough approvals within ${seconds} s (${approvalCount(pending)})`
              : `⛔ Denied: no answer within ${seconds} s`
            : `⛔ Denied by ${by}${rule && pending.approvedBy.length ? ` (after ${approvalCount(pending)})` : ''}`;
        if (pending.ref) void out.edit(pending.ref, decidedText(asker, tool, full, asFile, verdict), { buttons: [], urgent: true }).catch(() => {});
        resolve(decision);
      };
      pending.text = questionText(asker, tool, full, asFile, timeoutMs, rule);
      // Allow approves the whole input, so the whole input is shown first: a long one as a file.
      const shown = asFile ? out.sendDocument(asker.address, { filename: `${tool.replace(/\W+/g, '-')}-input-${id}.json`, content: full }) : Promise.resolve();
      shown
        .then(() => out.send(asker.address, pending.text!, { buttons: questionButtons(id, asker, tool, rule) }))
        .then((ref) => (pending.ref = ref))
        .catch((error) => {
          this.options.log?.warn({ chat: asker.chatKey }, `asking for approval failed: ${(error as Error).message}`);
          settle({ behavior: 'deny', message: 'The chat could not be asked: denied.' }, 'the bridge');
        });
    });
  }

  /** The reason auto-approval must wait, or undefined; records the approval when there is none. */
  private rateLimited(askerId: string, auto: AutoApprove): string | undefined {
    const now = Date.now();
    const count = this.approvedCount.get(askerId) ?? 0;
    if (count >= auto.perRun) return `${auto.perRun} auto-approved calls is this run's limit`;
    const lastMinute = (this.approvedAt.get(askerId) ?? []).filter((time) => now - time < 60_000);
    if (lastMinute.length >= auto.perMinute) return `${auto.perMinute} auto-approved calls a minute is the limit`;
    this.approvedAt.set(askerId, [...lastMinute, now]);
    this.approvedCount.set(askerId, count + 1);
    return undefined;
  }
}

/** Why an "Allow for this session" press on a turn nobody typed allowed only the call asked about. */
const NO_GRANT = 'once: a turn no person typed is given nothing for the session';

/** What the audit says of a call a grant allowed: on a session, whose typed turns it covers. */
function grantDetail(asker: Asker): string {
  return `allowed for this ${asker.lifetime}${asker.grantHolder?.person ? ` (turns typed by ${asker.grantHolder.person})` : ''}`;
}

function withinWindow(asker: Asker, auto: AutoApprove): boolean {
  return Date.now() - (asker.startedAt ?? Date.now()) < auto.maxDurationSeconds * 1000;
}
