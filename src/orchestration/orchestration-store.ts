import { join } from 'node:path';
import type { Low } from 'lowdb';
import { nextChatNumber } from '../store/chat-numbers.ts';
import { openJsonStore } from '../store/json-store.ts';
import { needsDelivery, pendingDelivery } from '../subagents/delivery.ts';
import type { OrchestrationRecord } from './orchestration-record.ts';

interface Data {
  version: 1;
  numbers: Record<string, number>;
  orchestrations: Record<string, OrchestrationRecord>;
}

/** Orchestrations in `<dataDir>/orchestrations.json`, saved on every step change. */
export class OrchestrationStore {
  private constructor(private readonly db: Low<Data>) {}

  static async open(dataDir: string): Promise<OrchestrationStore> {
    const db = await openJsonStore<Data>(join(dataDir, 'orchestrations.json'), { version: 1, numbers: {}, orchestrations: {} });
    for (const record of Object.values(db.data.orchestrations)) upgrade(record);
    return new OrchestrationStore(db);
  }

  get(id: string): OrchestrationRecord | undefined {
    return this.db.data.orchestrations[id];
  }

  all(): OrchestrationRecord[] {
    return Object.values(this.db.data.orchestrations);
  }

  nextNumber(chatKey: string): number {
    return nextChatNumber(this.db.data.numbers, chatKey);
  }

  async save(record: OrchestrationRecord): Promise<void> {
    this.db.data.orchestrations[record.id] = record;
    await this.db.write();
  }

  /** Ended and announced orchestrations beyond the newest `keep` of a chat are dropped. */
  async trim(keep: number): Promise<void> {
    const byChat = new Map<string, OrchestrationRecord[]>();
    for (const record of this.all()) byChat.set(record.chatKey, [...(byChat.get(record.chatKey) ?? []), record]);
    let changed = false;
    for (const records of byChat.values()) {
      const done = records.filter((r) => r.status !== 'running' && r.delivery && !needsDelivery(r.delivery)).sort((a, b) => b.number - a.number);
      for (const old of done.slice(keep)) {
        delete this.db.data.orchestrations[old.id];
        changed = true;
      }
    }
    if (changed) await this.db.write();
  }
}

/** What the first release saved and this one no longer does. */
interface LegacyFields {
  announced?: boolean;
}

/** Records saved by the first release: their announcement state becomes an outbox delivery. */
function upgrade(record: OrchestrationRecord & LegacyFields): void {
  if (record.announced === undefined) return;
  if (record.status !== 'running') record.delivery = record.announced ? { chat: 'sent', sentParts: 0, attempts: 0 } : pendingDelivery(false);
  delete record.announced;
}
