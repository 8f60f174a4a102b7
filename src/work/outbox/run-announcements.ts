import { planMarkdown } from '../presentation/deliver.ts';
import { needsDelivery, patchDelivery } from '../subagents/delivery.ts';
import type { Announcement, AnnouncementSource } from './outbox.ts';
import { announcementBody, announcementHeader } from '../presentation/announcement.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';
import { reviewable, reviewButtons } from '../presentation/review.ts';
import type { RunStore } from '../subagents/run-store.ts';

export interface RunAnnouncementOptions {
  store: RunStore;
  documentOverChars: number;
  /** An announced run stays in /subagents this long before it is archived. */
  retentionMinutes: number;
  /** Gives ended runs' results to the main agent that spawned them. */
  toAgent: (runs: SubagentRunRecord[]) => Promise<void>;
}

/** Ended subagent runs, as the outbox announces them: one message with the result and stats (or a file when long), and Diff, Merge and Discard under a worktree's. */
export function runAnnouncements(options: RunAnnouncementOptions): AnnouncementSource {
  const { store } = options;
  return {
    name: 'run',
    pending: () =>
      store
        .all()
        .filter((run) => run.endedAt && needsDelivery(run.delivery))
        .map((run): Announcement => ({
          id: run.runId,
          address: run.chat,
          endedAt: run.endedAt!,
          delivery: run.delivery,
          trace: run.trace,
          parts: (fit) =>
            planMarkdown(announcementBody(run), fit, {
              header: announcementHeader(run),
              documentOverChars: options.documentOverChars,
              filename: `subagent-${run.number}-result.md`,
              // A run that worked in a worktree here is reviewed from its announcement.
              ...(reviewable(run) ? { buttons: reviewButtons(run) } : {}),
            }),
        })),
    async save(runId, patch) {
      const run = store.get(runId);
      if (!run) return;
      const delivery = patchDelivery(run.delivery, patch);
      // Retention starts once every delivery is done.
      const archiveAfter = run.archiveAfter ?? (needsDelivery(delivery) ? undefined : Date.now() + options.retentionMinutes * 60_000);
      await store.save({ ...run, delivery, ...(archiveAfter !== undefined ? { archiveAfter } : {}) });
    },
    toAgent: (runIds) => options.toAgent(runIds.map((id) => store.get(id)).filter((run) => run !== undefined)),
  };
}
