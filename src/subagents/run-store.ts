import { appendFile, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Low } from 'lowdb';
import { nextChatNumber } from '../store/chat-numbers.ts';
import { openJsonStore } from '../store/json-store.ts';
import type { SubagentRunRecord } from './record.ts';

interface LiveData {
  version: 1;
  /** The last #number given out per chat: numbers are never reused, even after archiving. */
  numbers: Record<string, number>;
  runs: Record<string, SubagentRunRecord>;
}

/**
 * Runs in two places: the live file (active and recently ended runs, rewritten on every
 * transition, so kept small) and an append-only archive (JSONL, trimmed per chat).
 */
export class RunStore {
  private writing: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  private constructor(
    private readonly db: Low<LiveData>,
    private readonly archiveFile: string,
  ) {}

  static async open(dataDir: string): Promise<RunStore> {
    const db = await openJsonStore<LiveData>(join(dataDir, 'subagents.json'), { version: 1, numbers: {}, runs: {} });
    return new RunStore(db, join(dataDir, 'subagents-archive.jsonl'));
  }

  get(runId: string): SubagentRunRecord | undefined {
    return this.db.data.runs[runId];
  }

  all(): SubagentRunRecord[] {
    return Object.values(this.db.data.runs);
  }

  nextNumber(chatKey: string): number {
    return nextChatNumber(this.db.data.numbers, chatKey);
  }

  /** Writes the record (and everything changed before it) to disk before returning. */
  async save(run: SubagentRunRecord): Promise<void> {
    this.db.data.runs[run.runId] = run;
    await this.flush();
  }

  /** Moves ended runs to the archive: appended first, then dropped from the live file. */
  async archive(runs: SubagentRunRecord[]): Promise<void> {
    if (!runs.length) return;
    await appendFile(this.archiveFile, runs.map((run) => JSON.stringify(run)).join('\n') + '\n', { mode: 0o600 });
    for (const run of runs) delete this.db.data.runs[run.runId];
    await this.flush();
  }

  /**
   * Group commit: saves made while a write is on its way share the next one, so many runs
   * changing at once cost one serialisation of the file, not one each. Every caller still
   * resolves only after a write that includes its change.
   */
  private flush(): Promise<void> {
    this.next ??= (this.writing ?? Promise.resolve()).then(() => {
      this.next = undefined;
      this.writing = this.db.write().finally(() => (this.writing = undefined));
      return this.writing;
    });
    return this.next;
  }

  /** Archived runs, oldest first (a line torn by a crash is skipped). */
  async archived(): Promise<SubagentRunRecord[]> {
    const text = await readFile(this.archiveFile, 'utf8').catch(() => '');
    const runs: SubagentRunRecord[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        runs.push(JSON.parse(line));
      } catch {
        // a partial last line from a crash mid-append
      }
    }
    return runs;
  }

  /** Keeps the newest `perChat` archived runs of each chat (rewriting the archive atomically); returns the rest. */
  async trimArchive(perChat: number): Promise<SubagentRunRecord[]> {
    const runs = await this.archived();
    const kept: SubagentRunRecord[] = [];
    const dropped: SubagentRunRecord[] = [];
    const counts = new Map<string, number>();
    for (const run of [...runs].reverse()) {
      const count = counts.get(run.requesterKey) ?? 0;
      (count < perChat ? kept : dropped).push(run);
      counts.set(run.requesterKey, count + 1);
    }
    if (dropped.length > 0) {
      const temp = `${this.archiveFile}.tmp`;
      await writeFile(
        temp,
        kept
          .reverse()
          .map((run) => JSON.stringify(run))
          .join('\n') + '\n',
        { mode: 0o600 },
      );
      await rename(temp, this.archiveFile);
    }
    return dropped;
  }
}
