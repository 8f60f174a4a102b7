import { wholeNumber } from '../../kernel/settings/variables.ts';

/** A session that keeps a CLI process between its turns. */
export interface LiveHolder {
  readonly busy: boolean;
  readonly liveLastUsed: number;
  /** Closes its process; its session resumes in a new one on its next turn. */
  closeLive(): Promise<void>;
}

export interface LivePoolOptions {
  /** At most this many processes are kept between turns (BRIDGE_LIVE_SESSIONS). */
  max: number;
  /** One with no turn for this long is closed (BRIDGE_IDLE_MINUTES). */
  idleMs: number;
}

export function liveSessions(env: NodeJS.ProcessEnv): LivePoolOptions {
  return { max: wholeNumber(env, 'BRIDGE_LIVE_SESSIONS', 8, 0), idleMs: wholeNumber(env, 'BRIDGE_IDLE_MINUTES', 30, 1) * 60_000 };
}

/**
 * The bound on live CLI processes, across chats: an idle real claude holds about 235 MB.
 * Past the limit the least recently used idle one is closed; a busy one never is, and when
 * every one is busy the newcomer keeps its process for this turn only.
 */
export class LivePool {
  private readonly holders = new Set<LiveHolder>();

  constructor(private readonly options: LivePoolOptions) {}

  get size(): number {
    return this.holders.size;
  }

  /** The processes kept now, running a turn or idle. */
  counts(): { busy: number; idle: number } {
    const busy = [...this.holders].filter((holder) => holder.busy).length;
    return { busy, idle: this.holders.size - busy };
  }

  /** A holder's CLI is about to run a turn: whether it may keep its process afterwards. */
  admit(holder: LiveHolder): boolean {
    this.holders.add(holder);
    while (this.holders.size > this.options.max) {
      const idle = [...this.holders].filter((other) => other !== holder && !other.busy).sort((a, b) => a.liveLastUsed - b.liveLastUsed)[0];
      if (!idle) {
        this.holders.delete(holder);
        return false;
      }
      this.holders.delete(idle);
      void idle.closeLive();
    }
    return true;
  }

  /** The holder's process is gone (closed, crashed, its session replaced). */
  release(holder: LiveHolder): void {
    this.holders.delete(holder);
  }

  /** Closes the processes idle for longer than idleMs. */
  async sweep(now = Date.now()): Promise<void> {
    const idle = [...this.holders].filter((holder) => !holder.busy && now - holder.liveLastUsed >= this.options.idleMs);
    for (const holder of idle) this.holders.delete(holder);
    await Promise.all(idle.map((holder) => holder.closeLive()));
  }

  /** Closes every process (the bridge is stopping). */
  async closeAll(): Promise<void> {
    const all = [...this.holders];
    this.holders.clear();
    await Promise.all(all.map((holder) => holder.closeLive()));
  }
}
