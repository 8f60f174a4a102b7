import { rm } from 'node:fs/promises';
import type { RunStore } from './run-store.ts';
import { isActive } from './record.ts';

/**
 * Keeps the live store small: ended, fully announced runs move to the archive once their
 * retention is over, and the archive keeps only the newest runs of each chat (their logs
 * go with the ones dropped).
 */
export class Sweeper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: RunStore,
    private readonly historyPerChat: number,
    private readonly log: (line: string) => void = () => {},
  ) {}

  start(intervalMs = 60_000): void {
    this.timer = setInterval(() => void this.sweep().catch((error) => this.log(`sweep failed: ${error}`)), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async sweep(now = Date.now()): Promise<{ archived: number; dropped: number }> {
    const due = this.store.all().filter((run) => !isActive(run) && run.archiveAfter !== undefined && run.archiveAfter <= now);
    if (!due.length) return { archived: 0, dropped: 0 };
    await this.store.archive(due);
    const dropped = await this.store.trimArchive(this.historyPerChat);
    await Promise.all(dropped.flatMap((run) => [rm(run.logFile, { force: true }), rm(`${run.logFile}.1`, { force: true })]));
    return { archived: due.length, dropped: dropped.length };
  }
}
