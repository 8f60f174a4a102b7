import { join } from 'node:path';
import type { Low } from 'lowdb';
import { nextChatNumber } from '../../kernel/store/chat-numbers.ts';
import { openJsonStore } from '../../kernel/store/json-store.ts';
import { JsonlArchive } from '../../kernel/store/jsonl-archive.ts';
import type { SubagentRunRecord } from './record.ts';
import { DATA_FORMAT } from '../../kernel/store/data-format.ts';
import { own, putOwn } from '../../kernel/store/own.ts';

interface LiveData {
  /** The data format it was written in (store/data-format.ts). */
  version: number;
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
  private readonly saved = new Set<(run: SubagentRunRecord) => void>();

  private constructor(
    private readonly db: Low<LiveData>,
    private readonly history: JsonlArchive<SubagentRunRecord>,
  ) {}

  static async open(dataDir: string): Promise<RunStore> {
    const db = await openJsonStore<LiveData>(join(dataDir, 'subagents.json'), { version: DATA_FORMAT, numbers: {}, runs: {} });
    return new RunStore(db, new JsonlArchive(join(dataDir, 'subagents-archive.jsonl'), (run) => run.requesterKey));
  }

  get(runId: string): SubagentRunRecord | undefined {
    return own(this.db.data.runs, runId);
  }

  all(): SubagentRunRecord[] {
    return Object.values(this.db.data.runs);
  }

  nextNumber(chatKey: string): number {
    return nextChatNumber(this.db.data.numbers, chatKey);
  }

  /** Writes the record (and everything changed before it) to disk before returning. */
  async save(run: SubagentRunRecord): Promise<void> {
    putOwn(this.db.data.runs, run.runId, run);
    await this.flush();
    for (const listener of this.saved) listener(run);
  }

  /** Calls `listener` with each run once its change is on disk (the dashboard's live table); returns the unsubscribe. */
  onSaved(listener: (run: SubagentRunRecord) => void): () => void {
    this.saved.add(listener);
    return () => this.saved.delete(listener);
  }

  /** Moves ended runs to the archive: appended first, then dropped from the live file. */
  async archive(runs: SubagentRunRecord[]): Promise<void> {
    if (!runs.length) return;
    await this.history.append(runs);
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

  /** A run by its id, among the live ones and then the archive (a page may ask about any run it listed). */
  async find(runId: string): Promise<SubagentRunRecord | undefined> {
    return this.get(runId) ?? (await this.archived()).find((run) => run.runId === runId);
  }

  /** Archived runs, oldest first. */
  archived(): Promise<SubagentRunRecord[]> {
    return this.history.read();
  }

  /** Keeps the newest `perChat` archived runs of each chat; returns the rest. */
  trimArchive(perChat: number): Promise<SubagentRunRecord[]> {
    return this.history.trim(perChat);
  }
}
