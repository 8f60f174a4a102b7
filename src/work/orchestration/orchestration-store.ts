import { needsDelivery, pendingDelivery } from '../subagents/delivery.ts';
import type { OrchestrationRecord } from './orchestration-record.ts';
import { LiveStore } from '../subagents/live-store.ts';

/** Orchestrations in `<dataDir>/orchestrations.json`, saved on every step change, and those archived in `orchestrations-archive.jsonl`. */
export class OrchestrationStore extends LiveStore<OrchestrationRecord> {
  /** `defaults`: where plans saved by the first release (which kept no origin) go on running. */
  static async open(dataDir: string, defaults: { cwd: string; cli: string }): Promise<OrchestrationStore> {
    const store = new OrchestrationStore(
      ...(await LiveStore.load<OrchestrationRecord>(dataDir, { name: 'orchestrations', field: 'orchestrations', idOf: (o) => o.id, chatOf: (o) => o.chatKey })),
    );
    for (const record of store.all()) upgrade(record, defaults);
    return store;
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
    await this.archive(due);
    await this.trimArchive(perChat);
    return due.length;
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
