import { planMarkdown } from '../presentation/deliver.ts';
import { orchestrationAnnouncement } from '../presentation/orchestration.ts';
import { needsDelivery, patchDelivery } from '../subagents/delivery.ts';
import type { AnnouncementSource } from './outbox.ts';
import type { OrchestrationRecord } from '../orchestration/orchestration-record.ts';
import type { OrchestrationStore } from '../orchestration/orchestration-store.ts';

export interface OrchestrationAnnouncementOptions {
  store: OrchestrationStore;
  documentOverChars: number;
  /** Gives an ended orchestration's outcome to the main agent that created it. */
  toAgent: (orchestrations: OrchestrationRecord[]) => Promise<void>;
}

/** Ended orchestrations, as the outbox announces them: every step's outcome, then the final step's result. */
export function orchestrationAnnouncements(options: OrchestrationAnnouncementOptions): AnnouncementSource {
  const { store } = options;
  return {
    name: 'orchestration',
    pending: () =>
      store
        .all()
        .filter((record) => record.endedAt && record.delivery && needsDelivery(record.delivery))
        .map((record) => ({
          id: record.id,
          address: record.chat,
          endedAt: record.endedAt!,
          delivery: record.delivery!,
          parts: (fit) => {
            const { header, body } = orchestrationAnnouncement(record);
            return planMarkdown(body, fit, { header, documentOverChars: options.documentOverChars, filename: `orchestration-${record.number}-result.md` });
          },
        })),
    async save(id, patch) {
      const record = store.get(id);
      if (record?.delivery) await store.save({ ...record, delivery: patchDelivery(record.delivery, patch) });
    },
    toAgent: (ids) => options.toAgent(ids.map((id) => store.get(id)).filter((record) => record !== undefined)),
  };
}
