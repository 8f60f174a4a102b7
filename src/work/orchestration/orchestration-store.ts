import { join } from 'node:path';
import type { Low } from 'lowdb';
import { nextChatNumber } from '../../kernel/store/chat-numbers.ts';
import { openJsonStore } from '../../kernel/store/json-store.ts';
import { JsonlArchive } from '../../kernel/store/jsonl-archive.ts';
import { needsDelivery, pendingDelivery } from '../subagents/delivery.ts';
import type { OrchestrationRecord } from './orchestration-record.ts';
import { DATA_FORMAT } from '../../kernel/store/data-format.ts';
import { own, putOwn } from '../../kernel/store/own.ts';

interface Data {
  /** The data format it was written in (store/data-format.ts). */
  version: number;
  numbers: Record<string, number>;
  orchestrations: Record<string, OrchestrationRecord>;
}

/** Orchestrations in `<dataDir>/orchestrations.json`, saved on every step change. */
export class OrchestrationStore {
  private readonly saved = new Set<(record: OrchestrationRecord) => void>();
  private constructor(
    private readonly db: Low<Data>,
    private readonly history: JsonlArchive<OrchestrationRecord>,
  ) {}

  /** `defaults`: where plans saved by the first release (which kept no origin) go on running. */
  static async open(dataDir: string, defaults: { cwd: string; cli: string }): Promise<OrchestrationStore> {
    const db = await openJsonStore<Data>(join(dataDir, 'orchestrations.json'), { version: DATA_FORMAT, numbers: {}, orchestrations: {} });
    for (const record of Object.values(db.data.orchestrations)) upgrade(record, defaults);
    return new OrchestrationStore(db, new JsonlArchive(join(dataDir, 'orchestrations-archive.jsonl'), (record) => record.chatKey));
  }

  get(id: string): OrchestrationRecord | undefined {
    return own(this.db.data.orchestrations, id);
  }

  all(): OrchestrationRecord[] {
    return Object.values(this.db.data.orchestrations);
  }

  nextNumber(chatKey: string): number {
    return nextChatNumber(this.db.data.numbers, chatKey);
  }

  async save(record: OrchestrationRecord): Promise<void> {
    putOwn(this.db.data.orchestrations, record.id, record);
    await this.db.write();
    for (const listener of this.saved) listener(record);
  }

  /** Calls `listener` with each orchestration once its change is on disk; returns the unsubscribe. */
  onSaved(listener: (record: OrchestrationRecord) => void): () => void {
    this.saved.add(listener);
    return () => this.saved.delete(listener);
  }

  /**
   * Moves ended, announced orchestrations whose retention is over to the archive, and keeps
   * the newest `perChat` there: the live file stays small, like the runs'.
   */
  async sweep(now: number, retentionMs: number, perChat: number): Promise<number> {
    const due = this.all().filter(
      (o) => o.status !== 'running' && o.endedAt !== undefined && o.endedAt + retentionMs <= now && o.delivery && !needsDelivery(o.delivery),
    );
    if (!due.length) return 0;
    await this.history.append(due);
    for (const record of due) delete this.db.data.orchestrations[record.id];
    await this.db.write();
    await this.history.trim(perChat);
    return due.length;
  }

  /** Archived orchestrations, oldest first. */
  archived(): Promise<OrchestrationRecord[]> {
    return this.history.read();
  }
}

/** What the first release saved and this one does differently. */
interface LegacyFields {
  announced?: boolean;
  origin: OrchestrationRecord['origin'] | undefined;
}

/** Records saved by the first release: their announcement state becomes an outbox delivery. */
function upgrade(record: OrchestrationRecord & LegacyFields, defaults: { cwd: string; cli: string }): void {
  // A plan made by a person in the chat: its steps start from the chat's defaults, one level deep.
  record.origin ??= { ...defaults, depth: 0 };
  if (record.announced === undefined) return;
  if (record.status !== 'running') record.delivery = record.announced ? { chat: 'sent', sentParts: 0, attempts: 0 } : pendingDelivery(false);
  delete record.announced;
}
