import type { AgentEvent, ResultEvent } from '../../kernel/protocols/events.ts';

/**
 * How long after its message a result may say its turn took and still be that message's: the
 * CLI's clock starts when it reads the message, after the bridge wrote it, so only a result
 * of a turn begun before is longer (the margin covers the two clocks' rounding).
 */
export const RESULT_CLOCK_MARGIN_MS = 250;

/**
 * What one CLI process has been sent, and whether it names those messages back, as learned
 * from its own output. Claude Code 2.1.330 names each message it reads (`command_lifecycle`,
 * its first line for it) and lists those a result answers; codex names them on the turn's
 * user item. A CLI that answers (text, a tool call, a result) before naming the message it was
 * sent does not name them: an older claude, or another CLI reading messages on its input.
 * Only a CLI that names its messages can take one while it works and have each answered: from
 * one that does not, a message written as a turn ends has an answer no turn can tell apart.
 */
export class ProcessMessages {
  private readonly sentIds = new Set<string>();

  /** `known`: what the dialect says before any output (ACP names none). */
  constructor(private known?: boolean) {}

  /** Whether it names its messages back: undefined until its output has shown it. */
  get names(): boolean | undefined {
    return this.known;
  }

  sent(id: string): void {
    this.sentIds.add(id);
  }

  observe(event: AgentEvent): void {
    if (this.known !== undefined) return;
    if (event.type === 'input' || (event.type === 'result' && event.answered?.length)) this.known = true;
    else if (this.sentIds.size && (event.type === 'text' || event.type === 'tool_start' || event.type === 'result')) this.known = false;
  }

  /**
   * Whether `result`, come while a turn of `own` messages (the first written at `since`) is at
   * work, is the answer to an earlier message instead: one it names that are all earlier ones,
   * or, from a CLI that names none, one whose turn began before the turn's message was written.
   */
  answersEarlier(result: ResultEvent, own: ReadonlySet<string>, since: number | undefined): boolean {
    const answered = result.answered ?? [];
    if (answered.length) return answered.every((id) => this.sentIds.has(id) && !own.has(id));
    if (this.known === true || since === undefined || result.durationMs === undefined) return false;
    return result.durationMs > Date.now() - since + RESULT_CLOCK_MARGIN_MS;
  }
}
