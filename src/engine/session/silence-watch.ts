import type { AgentEvent } from '../../kernel/protocols/events.ts';

/**
 * Ends a turn whose CLI shows no progress of the model for a while: a CLI that gets nowhere
 * (no credentials, no network) is not left "working" for ever. Progress is what the model
 * does: a session named, text, a tool call started or ended, a question, a result. Retry and
 * reconnect lines, errors and lines the bridge cannot read are not. A tool call in flight is
 * work (a long build prints nothing until it ends), and so is a wait on a person (`hold`):
 * neither is silence.
 */
export class SilenceWatch {
  private lastProgressAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private readonly openCalls = new Set<string>();
  private holds = 0;
  private stopped = false;
  /** The CLI's last words that were not progress (its retries, its errors): what the reason quotes. */
  private lastWords: string | undefined;
  /** Progress seen since the clock was last read: it is read once all of a chunk's events are in. */
  private stampDue = false;
  private readonly stamp = () => {
    this.stampDue = false;
    this.lastProgressAt = Date.now();
  };

  constructor(
    private readonly silenceMs: number | undefined,
    private readonly onSilent: (lastWords: string | undefined) => void,
  ) {
    this.arm(silenceMs);
  }

  /**
   * Cheap on purpose (it runs for every event): one switch on the event's type, not a read of
   * it for each test and a set to look it up in (events come in many shapes, so each read is a
   * generic lookup); the timer is re-armed only when it fires early; and the clock is read once
   * for the events of one chunk of output (all decoded in one go, so at one time), after them:
   * read for each event, it cost more than the rest of the watch.
   */
  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'tool_start':
        this.openCalls.add(event.id);
        break;
      case 'tool_end':
        this.openCalls.delete(event.id);
        break;
      case 'log':
        this.lastWords = event.line;
        return;
      case 'error':
        this.lastWords = event.message;
        return;
      // The model's progress, besides its tool calls.
      case 'started':
      case 'text':
      case 'result':
      case 'permission':
      case 'input':
      case 'usage':
        break;
      default:
        return;
    }
    if (this.stampDue) return;
    this.stampDue = true;
    queueMicrotask(this.stamp);
  }

  /** Pauses the watch while the turn waits on a person; the release (called once: TurnLimitWatch) starts the silence afresh. */
  hold(): () => void {
    this.holds++;
    return () => {
      this.holds--;
      this.lastProgressAt = Date.now();
    };
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private arm(ms: number | undefined): void {
    if (!ms || this.stopped) return;
    this.timer = setTimeout(() => this.check(), ms);
    this.timer.unref();
  }

  private check(): void {
    if (this.stopped || !this.silenceMs) return;
    if (this.holds || this.openCalls.size) {
      this.lastProgressAt = Date.now();
      return this.arm(this.silenceMs);
    }
    const quiet = Date.now() - this.lastProgressAt;
    if (quiet < this.silenceMs) return this.arm(this.silenceMs - quiet);
    this.stop();
    this.onSilent(this.lastWords);
  }
}

/** Why a silent turn was ended, and what to check. */
export function silenceReason(cli: string, silenceMs: number, lastWords: string | undefined): string {
  const seconds = Math.round(silenceMs / 1000);
  const said = lastWords ? ` (its last words: "${lastWords.length > 200 ? `${lastWords.slice(0, 199)}…` : lastWords}")` : '';
  return `${cli} showed no progress for ${seconds} s${said}, so the turn was ended. Check its network and its credentials (npm run doctor); BRIDGE_SILENCE_SECONDS sets how long to wait.`;
}
