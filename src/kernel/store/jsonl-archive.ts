import { appendFile, readFile } from 'node:fs/promises';
import { jsonOf } from '../protocols/decoder.ts';
import { writePrivateFile } from './private-files.ts';

/**
 * An append-only JSONL file of records that left a live store: appended in batches, read
 * oldest first, trimmed to the newest few per chat with an atomic rewrite. The live file stays
 * small however much history there is.
 */
export class JsonlArchive<T> {
  constructor(
    private readonly file: string,
    /** The chat a record belongs to: the archive keeps a number of records per chat. */
    private readonly chatOf: (record: T) => string,
  ) {}

  async append(records: readonly T[]): Promise<void> {
    if (!records.length) return;
    await appendFile(this.file, asLines(records), { mode: 0o600 });
  }

  /** Oldest first. */
  async read(): Promise<T[]> {
    return jsonLines<T>(await readFile(this.file, 'utf8').catch(() => ''));
  }

  /** Keeps the newest `perChat` records of each chat; returns the ones dropped. */
  async trim(perChat: number): Promise<T[]> {
    const records = await this.read();
    const kept: T[] = [];
    const dropped: T[] = [];
    const counts = new Map<string, number>();
    for (const record of [...records].reverse()) {
      const chat = this.chatOf(record);
      const count = counts.get(chat) ?? 0;
      (count < perChat ? kept : dropped).push(record);
      counts.set(chat, count + 1);
    }
    if (dropped.length > 0) await writePrivateFile(this.file, asLines(kept.reverse()));
    return dropped;
  }
}

function asLines(records: readonly unknown[]): string {
  return records.map((record) => JSON.stringify(record)).join('\n') + '\n';
}

/** The records of JSON lines, in order; a line torn by a crash mid-append is skipped. */
export function jsonLines<T>(text: string): T[] {
  return text.split('\n').flatMap((line) => {
    const record = line.trim() ? jsonOf<T>(line) : undefined;
    return record === undefined ? [] : [record];
  });
}
