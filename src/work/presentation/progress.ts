import type { AgentEvent, Usage } from '../../kernel/protocols/events.ts';
import { truncate } from './format/index.ts';
import { bold, code, italic, lines, plain, rich, type RichText } from '../../kernel/rich/index.ts';
import { toolSummary } from './tool-summary.ts';
import { blockedLine } from './blocked.ts';

export interface ProgressStep {
  id: string;
  name: string;
  summary: string;
  depth: number;
  state: 'running' | 'ok' | 'error';
  /** Not a tool call: a message the chat sent into the running turn. */
  message?: boolean;
  /** A host the sandbox refused (not a tool call): why. */
  blocked?: string;
}

export type Phase = 'queued' | 'working' | 'completed' | 'failed' | 'stopped' | 'timed_out';

/** The steps shown; older ones are only counted, so a chatty CLI costs bounded memory. */
const VISIBLE_STEPS = 12;
/** Refused hosts said under the answer: an agent trying many says the first few. */
const BLOCKED_KEPT = 5;
const SUMMARY_CHARS = 70;

/**
 * What a progress message shows, built from the event stream: the tool calls (nested under
 * the CLI's own Task subagents), how long it has been, and how it ended.
 */
export class ProgressState {
  phase: Phase = 'working';
  private readonly steps: ProgressStep[] = [];
  private hidden = 0;
  /** Messages steered into the turn, among the steps. */
  private messages = 0;
  private refusals = 0;
  /** The hosts refused, each with why and what would help: said under the answer too, which takes the progress message's place. */
  readonly blocked: string[] = [];
  private readonly depths = new Map<string, number>();
  endedAt?: number;
  detail?: string;
  /** Tools the turn waits on the chat to allow or deny. */
  waiting: string[] = [];
  /** Something about the turn while it works (the bridge restarting). */
  notice?: string;
  usage?: Usage;
  costUsd?: number;
  /** Where the CLI's model API is: named while the CLI says it is not getting through. */
  modelApi?: string;
  /** The CLI's last words about not getting through (claude's API retries, codex's reconnects), until the model answers. */
  private trouble?: string;

  constructor(
    /** The CLI at work (another takes over when a limit stops the first). */
    public title: string,
    readonly startedAt = Date.now(),
    /** Where the turn works, shown under the steps. */
    readonly where?: string,
  ) {}

  /** The turn's tool calls: messages steered into it and hosts refused are shown among them, not counted. */
  get stepCount(): number {
    return this.hidden + this.steps.length - this.messages - this.refusals;
  }

  /** A message sent into the running turn (steered): shown among the steps, where it went in. */
  addMessage(text: string): void {
    this.messages++;
    this.push({
      id: `message-${this.steps.length + this.hidden}`,
      name: '',
      summary: truncate(text.replace(/\s+/g, ' '), SUMMARY_CHARS),
      depth: 0,
      state: 'ok',
      message: true,
    });
  }

  /** Applies one event; returns whether the view changed. */
  apply(event: AgentEvent): boolean {
    const answered = this.trouble !== undefined && ['text', 'usage', 'tool_start', 'tool_end', 'result'].includes(event.type);
    if (answered) this.trouble = undefined;
    switch (event.type) {
      case 'error':
        this.trouble = event.message;
        return true;
      case 'tool_start': {
        const depth = event.parentId ? (this.depths.get(event.parentId) ?? 0) + 1 : 0;
        this.depths.set(event.id, depth);
        this.push({ id: event.id, name: event.name, summary: truncate(toolSummary(event.name, event.input), SUMMARY_CHARS), depth, state: 'running' });
        return true;
      }
      case 'tool_end': {
        const step = this.steps.find((s) => s.id === event.id);
        if (!step) return false;
        step.state = event.isError ? 'error' : 'ok';
        return true;
      }
      case 'blocked':
        // Said once per host: the agent was refused a host nobody allowed (BRIDGE_SANDBOX_ALLOW, /net allow).
        this.refusals++;
        this.push({ id: `blocked-${event.host}`, name: 'blocked', summary: event.host, depth: 0, state: 'error', blocked: event.why });
        if (this.blocked.length < BLOCKED_KEPT) this.blocked.push(blockedLine(event.host, event.why));
        return true;
      case 'result':
        this.usage = event.usage;
        this.costUsd = event.costUsd;
        return false;
      default:
        return answered;
    }
  }

  /** A step shown; the oldest shown is only counted once there are more than VISIBLE_STEPS. */
  private push(step: ProgressStep): void {
    this.steps.push(step);
    if (this.steps.length > VISIBLE_STEPS) {
      this.steps.shift();
      this.hidden++;
    }
  }

  finish(phase: Exclude<Phase, 'queued' | 'working'>, detail?: string, now = Date.now()): void {
    this.phase = phase;
    this.detail = detail;
    this.endedAt = now;
    // Whatever was still running when the turn ended did not finish.
    for (const step of this.steps) if (step.state === 'running') step.state = phase === 'completed' ? 'ok' : 'error';
  }

  render(now = Date.now()): RichText {
    const elapsed = formatDuration((this.endedAt ?? now) - this.startedAt);
    const asking = this.phase === 'working' && this.waiting.length > 0;
    const head = asking
      ? `🔐 ${this.title} · waiting for your answer · ${elapsed}`
      : `${PHASE_ICON[this.phase]} ${this.title} · ${this.phase === 'completed' ? 'done' : this.phase.replace('_', ' ')} · ${elapsed}`;
    const shown: RichText[] = [bold(head)];
    if (this.hidden) shown.push(rich`… ${this.hidden} earlier step${this.hidden === 1 ? '' : 's'}`);
    for (const step of this.steps) {
      if (step.message) shown.push(rich`➕ added: ${italic(step.summary)}`);
      else if (step.blocked !== undefined) shown.push(rich`${blockedLine(step.summary, step.blocked)}`);
      else {
        const label = `${'   '.repeat(step.depth)}${STEP_ICON[step.state]} ${step.name}`;
        shown.push(step.summary ? rich`${label} ${code(step.summary)}` : rich`${label}`);
      }
    }
    if (this.phase === 'working' && this.trouble) shown.push(plain(`⚠️ ${noAnswerYet(this.title, this.modelApi, this.trouble)}`));
    const footer = this.footer();
    if (footer) shown.push(italic(footer));
    return lines(shown);
  }

  /** The turn in one line, under an answer that took the progress message's place: how it ended, how long, what it cost, where. */
  summary(now = Date.now()): RichText {
    const parts = [`${PHASE_ICON[this.phase]} ${formatDuration((this.endedAt ?? now) - this.startedAt)}`, ...this.stats()];
    if (this.where) parts.push(`📁 ${this.where}`);
    return italic(parts.join(' · '));
  }

  private stats(): string[] {
    const stats = [`${this.stepCount} step${this.stepCount === 1 ? '' : 's'}`];
    if (this.usage) stats.push(`${formatTokens(this.usage.inputTokens)} in / ${formatTokens(this.usage.outputTokens)} out`);
    if (this.costUsd !== undefined) stats.push(formatCost(this.costUsd));
    return stats;
  }

  private footer(): string {
    const parts: string[] = [];
    if (this.detail) parts.push(truncate(this.detail, 500));
    if (this.phase === 'working' && this.waiting.length) parts.push(`Allow or deny ${this.waiting.join(', ')} below.`);
    if (this.phase === 'working' && this.notice) parts.push(this.notice);
    if (this.phase !== 'working' && this.phase !== 'queued') parts.push(this.stats().join(' · '));
    if (this.where) parts.push(`📁 ${this.where}`);
    return parts.join('\n');
  }
}

/** What the CLI tried, and its own words: a turn or run waiting on an API it cannot reach is not silent. */
export function noAnswerYet(cli: string, modelApi: string | undefined, words: string): string {
  return `No answer yet from ${cli}'s model API${modelApi ? ` (${modelApi})` : ''}. ${cli} says: "${truncate(words, 300)}". npm run doctor checks the way there.`;
}

const PHASE_ICON: Record<Phase, string> = { queued: '⏳', working: '⚙️', completed: '✅', failed: '❌', stopped: '⏹', timed_out: '⌛' };
const STEP_ICON: Record<ProgressStep['state'], string> = { running: '▸', ok: '✓', error: '✗' };

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

export function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n);
}

export function formatCost(usd: number): string {
  return usd >= 0.01 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}
