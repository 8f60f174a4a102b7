import { SilenceWatch, silenceReason } from './silence-watch.ts';

/**
 * A turn's two limits, its timeout and its CLI's silence: either ends it with its reason. Both
 * wait while the turn waits on something outside it (a person answering an approval or a
 * question): waiting is not hanging.
 */
export class TurnLimitWatch {
  readonly silence: SilenceWatch;
  private readonly onTimeout: () => void;
  private timer: NodeJS.Timeout | undefined;
  private deadline: number | undefined;
  private holds = 0;
  private remainingMs: number | undefined;
  private stopped = false;

  constructor(
    { timeoutMs, silenceMs }: { timeoutMs?: number; silenceMs?: number },
    cli: string,
    end: (reason: { status: 'timed_out'; message: string }) => void,
  ) {
    this.onTimeout = () => end({ status: 'timed_out', message: `timed out after ${Math.round((timeoutMs ?? 0) / 1000)} s` });
    this.silence = new SilenceWatch(silenceMs, (lastWords) => end({ status: 'timed_out', message: silenceReason(cli, silenceMs ?? 0, lastWords) }));
    if (timeoutMs) this.arm(timeoutMs);
  }

  /** Pauses both; returns the release, after which the timeout resumes where it was and the silence starts afresh. */
  hold(): () => void {
    const silence = this.silence.hold();
    if (this.holds++ === 0 && this.deadline !== undefined && !this.stopped) {
      clearTimeout(this.timer);
      this.remainingMs = Math.max(0, this.deadline - Date.now());
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      silence();
      if (--this.holds === 0 && this.remainingMs !== undefined && !this.stopped) {
        this.arm(this.remainingMs);
        this.remainingMs = undefined;
      }
    };
  }

  /** The turn ended: neither limit fires. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.silence.stop();
  }

  private arm(ms: number): void {
    this.deadline = Date.now() + ms;
    this.timer = setTimeout(() => {
      if (!this.stopped) this.onTimeout();
    }, ms);
  }
}
