import { join } from 'node:path';
import type { Low } from 'lowdb';
import { nextChatNumber } from '../../kernel/store/chat-numbers.ts';
import { openJsonStore } from '../../kernel/store/json-store.ts';
import { JsonlArchive } from '../../kernel/store/jsonl-archive.ts';
import { DATA_FORMAT } from '../../kernel/store/data-format.ts';
import { own, putOwn } from '../../kernel/store/own.ts';

interface LiveData {
  /** The data format it was written in (store/data-format.ts). */
  version: number;
  /** The last #number given out per chat: numbers are never reused, even after archiving. */
  numbers: Record<string, number>;
}

/** Where a kind of record is kept: `<dataDir>/<name>.json`, its records under `field`, and its archive `<name>-archive.jsonl`. */
export interface LiveFiles<T> {
  name: string;
  field: string;
  idOf: (record: T) => string;
  /** The chat a record belongs to: the archive keeps a number of records per chat. */
  chatOf: (record: T) => string;
}

/**
 * Records of work (runs, orchestrations) in two places: the live file (active and recently
 * ended ones, rewritten on every transition, so kept small) and an append-only archive (JSONL,
 * trimmed per chat). A save resolves once a write including it is on disk; saves made while a
 * write is on its way share the next one (the JSON store's own group commit).
 */
export class LiveStore<T extends { number: number }> {
  private readonly saved = new Set<(record: T) => void>();

  protected constructor(
    private readonly db: Low<LiveData>,
    private readonly records: Record<string, T>,
    private readonly files: LiveFiles<T>,
    private readonly history: JsonlArchive<T>,
  ) {}

  protected static async load<T extends { number: number }>(
    dataDir: string,
    files: LiveFiles<T>,
  ): Promise<[Low<LiveData>, Record<string, T>, LiveFiles<T>, JsonlArchive<T>]> {
    const db = await openJsonStore<LiveData>(join(dataDir, `${files.name}.json`), { version: DATA_FORMAT, numbers: {}, [files.field]: {} });
    const records = (db.data as unknown as Record<string, Record<string, T>>)[files.field]!;
    return [db, records, files, new JsonlArchive(join(dataDir, `${files.name}-archive.jsonl`), files.chatOf)];
  }

  get(id: string): T | undefined {
    return own(this.records, id);
  }

  all(): T[] {
    return Object.values(this.records);
  }

  /** A chat's live records, newest first. */
  forChat(chatKey: string): T[] {
    return this.all()
      .filter((record) => this.files.chatOf(record) === chatKey)
      .sort((a, b) => b.number - a.number);
  }

  nextNumber(chatKey: string): number {
    return nextChatNumber(this.db.data.numbers, chatKey);
  }

  /** Writes the record (and everything changed before it) to disk before returning. */
  async save(record: T): Promise<void> {
    putOwn(this.records, this.files.idOf(record), record);
    await this.db.write();
    for (const listener of this.saved) listener(record);
  }

  /** Calls `listener` with each record once its change is on disk (the dashboard's live tables); returns the unsubscribe. */
  onSaved(listener: (record: T) => void): () => void {
    this.saved.add(listener);
    return () => this.saved.delete(listener);
  }

  /** Moves ended records to the archive: appended first, then dropped from the live file. */
  async archive(records: T[]): Promise<void> {
    if (!records.length) return;
    await this.history.append(records);
    for (const record of records) delete this.records[this.files.idOf(record)];
    await this.db.write();
  }

  /** Archived records, oldest first. */
  archived(): Promise<T[]> {
    return this.history.read();
  }

  /** Keeps the newest `perChat` archived records of each chat; returns the rest. */
  trimArchive(perChat: number): Promise<T[]> {
    return this.history.trim(perChat);
  }
}
