import type { SubagentSettings } from '../../kernel/settings/bridge-manifest.ts';
import type { RunExecution } from './execution.ts';
import type { SubagentRunRecord } from './record.ts';
import type { RunLog } from './run-log.ts';
import type { RunStore } from './run-store.ts';

/** A run holding a slot: from the moment it may start until its ending is saved. */
export interface Live {
  execution?: RunExecution;
  log?: RunLog;
  /** Settles once the run has ended and its record is saved. */
  done?: Promise<void>;
}

/**
 * The limits and queues of runs: how many may run in one chat and on the machine, how many
 * may wait, and which run holds a slot (by its id: this map). A slot is claimed in the same
 * tick as the decision it follows, so two spawns side by side never both take the last one; a
 * run found running at a restart, and followed again, keeps its slot whatever the limits; the
 * slot is free once the run's ending is saved, or its start failed.
 */
export class RunSlots extends Map<string, Live> {
  constructor(
    private readonly store: RunStore,
    readonly limits: SubagentSettings,
  ) {
    super();
  }

  /** Why a new run of this chat cannot even be queued (its queue is full), or undefined. */
  refusal(key: string): string | undefined {
    const runs = this.store.forChat(key);
    const running = runs.filter((r) => r.status === 'running').length;
    const queued = runs.filter((r) => r.status === 'queued').length;
    const mustQueue = running >= this.limits.maxConcurrent || this.size >= this.limits.globalMaxConcurrent || queued > 0;
    if (!mustQueue || queued < this.limits.maxQueued) return undefined;
    return `Limit reached: ${running} running and ${queued} queued in this chat (at most ${this.limits.maxConcurrent} running, ${this.limits.maxQueued} queued). Wait for one to finish, or /subagents stop one.`;
  }

  /**
   * The slot a new run (`runId`) of this chat now holds when it may start at once (as
   * `claimQueued` would start it: room in its chat and on the machine, nothing of its chat
   * queued before it), else none.
   */
  claimNew(key: string, runId: string): Live | undefined {
    if (!this.hasRoom(key) || this.store.forChat(key).some((r) => r.status === 'queued')) return undefined;
    return this.claim(runId);
  }

  /** The queued runs that may start now, oldest first, each with the slot it now holds. */
  claimQueued(): { run: SubagentRunRecord; live: Live }[] {
    const queued = this.store
      .all()
      .filter((r) => r.status === 'queued')
      .sort((a, b) => a.createdAt - b.createdAt);
    return queued.flatMap((run) => (this.hasRoom(run.requesterKey) ? [{ run, live: this.claim(run.runId) }] : []));
  }

  /** Whether one more run of this chat may hold a slot: room in its chat and on the machine. */
  private hasRoom(key: string): boolean {
    const running = [...this.keys()].filter((runId) => this.store.get(runId)?.requesterKey === key).length;
    return this.size < this.limits.globalMaxConcurrent && running < this.limits.maxConcurrent;
  }

  private claim(runId: string): Live {
    const live: Live = {};
    this.set(runId, live);
    return live;
  }

  /** Its place in its chat's queue (1: next), 0 when it is not queued. */
  queuePosition(run: SubagentRunRecord): number {
    const queue = this.store
      .forChat(run.requesterKey)
      .filter((r) => r.status === 'queued')
      .sort((a, b) => a.createdAt - b.createdAt);
    return queue.findIndex((r) => r.runId === run.runId) + 1;
  }
}
