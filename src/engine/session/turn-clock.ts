/**
 * A turn's timeout, which can be held while the turn waits on something outside it (a person
 * answering an approval or a question): waiting is not hanging.
 */
export class TurnClock {
  private timer: NodeJS.Timeout | undefined;
  private deadline: number | undefined;
  private holds = 0;
  private remainingMs: number | undefined;
  private stopped = false;

  constructor(
    timeoutMs: number | undefined,
    private readonly onTimeout: () => void,
  ) {
    if (timeoutMs) this.arm(timeoutMs);
  }

  /** Pauses the clock; returns the release, after which it resumes where it was. */
  hold(): () => void {
    if (this.holds++ === 0 && this.deadline !== undefined && !this.stopped) {
      clearTimeout(this.timer);
      this.remainingMs = Math.max(0, this.deadline - Date.now());
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0 && this.remainingMs !== undefined && !this.stopped) {
        this.arm(this.remainingMs);
        this.remainingMs = undefined;
      }
    };
  }

  /** The turn ended: the clock never fires. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private arm(ms: number): void {
    this.deadline = Date.now() + ms;
    this.timer = setTimeout(() => {
      if (!this.stopped) this.onTimeout();
    }, ms);
  }
}
