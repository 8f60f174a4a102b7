import { SilenceWatch, silenceReason } from './silence-watch.ts';

/** A turn's two limits, its timeout and its CLI's silence: either ends it with its reason; both wait while it waits on a person. */
export class TurnLimitWatch {
  readonly silence: SilenceWatch;
  private readonly clock: TurnClock;

  constructor(
    { timeoutMs, silenceMs }: { timeoutMs?: number; silenceMs?: number },
    cli: string,
    end: (reason: { status: 'timed_out'; message: string }) => void,
  ) {
    this.clock = new TurnClock(timeoutMs, () => end({ status: 'timed_out', message: `timed out after ${Math.round((timeoutMs ?? 0) / 1000)} s` }));
    this.silence = new SilenceWatch(silenceMs, (lastWords) => end({ status: 'timed_out', message: silenceReason(cli, silenceMs ?? 0, lastWords) }));
  }

  /** Pauses both; returns the release. */
  hold(): () => void {
    const releases = [this.clock.hold(), this.silence.hold()];
    return () => releases.forEach((release) => release());
  }

  stop(): void {
    this.clock.stop();
    this.silence.stop();
  }
}

/**
 * A turn's timeout, which can be held while the turn waits on something outside it (a person
 * answering an approval or a question): waiting is not hanging.
 */
class TurnClock {
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
