import type { Log } from '../../kernel/log/logger.ts';

/** How a thing the drain waited for left the worker. */
export type DrainOutcome = 'finished' | 'handed back';

/**
 * When a drain stops waiting: BRIDGE_DRAIN_SECONDS after it began, or at once when it is
 * forced (a second signal).
 */
export class DrainDeadline {
  readonly reached: Promise<void>;
  private reach!: () => void;
  private readonly timer: NodeJS.Timeout;

  constructor(readonly ms: number) {
    this.reached = new Promise((resolve) => (this.reach = resolve));
    this.timer = setTimeout(() => this.reach(), ms);
  }

  /** Stops waiting now: what is still here is handed back at once. */
  force(): void {
    clearTimeout(this.timer);
    this.reach();
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/**
 * Something a worker holds that its drain sees through before the worker leaves: it finishes
 * here before the deadline, or at the deadline is stopped and handed back for another worker
 * to go on with.
 */
export interface Drainable {
  /** What it is, for the drain's log: `run 3fK2aQ (#3)`. */
  readonly what: string;
  /** Resolves once it has left this worker: ended here by itself, or, once `deadline` is reached, handed back. */
  finishOrHandBack(deadline: DrainDeadline): Promise<DrainOutcome>;
}

/** What a worker holds work in (its sessions, SessionHost): the drain has it take nothing new, then sees through what it holds. */
export interface DrainHolder {
  /** From now on takes no new work from the queue; what it holds goes on. */
  stopTaking(): Promise<void>;
  /** What it holds now. */
  drainables(): Drainable[];
}

/**
 * A worker's drain (its first SIGTERM or Ctrl-C): it stops taking work at once, then each
 * thing held finishes within the deadline or is handed back at it. Says in the log what it
 * waits for, what finished, and what was handed back. Resolves once nothing is held.
 */
export async function drainWorker(holder: DrainHolder, deadline: DrainDeadline, log: Log): Promise<void> {
  await holder.stopTaking();
  const held = holder.drainables();
  if (!held.length) log.info('draining: taking no new work, and nothing is running here');
  else {
    log.info(
      `draining: taking no new work; waiting up to ${deadline.ms / 1000} s for ${held.map((thing) => thing.what).join(', ')} to finish, then handing back what is left (again to hand it back now)`,
    );
    let left = held.length;
    const outcomes = await Promise.all(
      held.map(async (thing) => {
        const outcome = await thing.finishOrHandBack(deadline);
        log.info(
          `draining: ${thing.what} ${outcome === 'finished' ? 'finished here' : 'was handed back, to go on on another worker'}${--left ? `; waiting for ${left} more` : ''}`,
        );
        return outcome;
      }),
    );
    const finished = outcomes.filter((outcome) => outcome === 'finished').length;
    log.info(`drained: ${finished} finished here, ${outcomes.length - finished} handed back`);
  }
  deadline.clear();
}
