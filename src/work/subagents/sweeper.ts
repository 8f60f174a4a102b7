import { rm } from 'node:fs/promises';
import type { RunStore } from './run-store.ts';
import { isActive } from './record.ts';
import { removeWorktree } from '../../engine/worktrees/index.ts';
import type { Log } from '../../kernel/log/logger.ts';

/**
 * Keeps the live store small: ended, fully announced runs move to the archive once their
 * retention is over, and the archive keeps only the newest runs of each chat (their logs
 * go with the ones dropped).
 */
export class Sweeper {
  constructor(
    private readonly store: RunStore,
    private readonly historyPerChat: number,
    private readonly log: Log,
  ) {}

  async sweep(now = Date.now()): Promise<{ archived: number; dropped: number }> {
    const due = this.store.all().filter((run) => !isActive(run) && run.archiveAfter !== undefined && run.archiveAfter <= now);
    if (!due.length) return { archived: 0, dropped: 0 };
    // Worktrees of finished runs go with them, unless their branch holds unmerged commits.
    for (const [index, run] of due.entries()) {
      if (!run.worktree || run.worktree.removed) continue;
      const result = await removeWorktree(run.worktree).catch((error: Error) => ({ removed: false, reason: error.message }));
      due[index] = { ...run, worktree: { ...run.worktree, removed: result.removed, ...(result.reason ? { kept: result.reason } : {}) } };
      if (!result.removed) this.log.warn({ run: run.runId }, `kept the run's worktree: ${result.reason}`);
    }
    await this.store.archive(due);
    const dropped = await this.store.trimArchive(this.historyPerChat);
    await Promise.all(dropped.flatMap((run) => [rm(run.logFile, { force: true }), rm(`${run.logFile}.1`, { force: true })]));
    return { archived: due.length, dropped: dropped.length };
  }
}
