import { planMarkdown, sendPart } from '../chat/deliver.ts';
import type { ChatAddress, Outbound } from '../chat/transport.ts';
import type { Settings } from '../config/bridge-manifest.ts';
import { announcementBody, announcementHeader } from './announcement.ts';
import { runAddress, type SubagentRunRecord } from './record.ts';
import type { RunStore } from './run-store.ts';

/** Retries back off from 1 s to 5 min; a destination that is gone for good is given up after this many. */
const MAX_BACKOFF_MS = 5 * 60_000;
const MAX_ATTEMPTS = 30;

/**
 * The outbox: every ended run is announced in its chat exactly once. Progress is saved after
 * each message, so a 429, a 5xx, a network drop or a restart resumes at the first part not
 * yet sent, and never sends one twice.
 */
export class Announcer {
  private busy: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly handing = new Set<string>();

  constructor(
    private readonly options: {
      store: RunStore;
      out: Outbound;
      settings: Settings;
      log?: (line: string) => void;
      /** Hands an ended run's result to the main agent that spawned it (the tools part). */
      toAgent?: (runs: SubagentRunRecord[]) => Promise<void>;
    },
  ) {}

  /** Something may be waiting: deliver it soon. */
  kick(): void {
    if (this.closed) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = this.drain().finally(() => {
      this.busy = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Waits for the deliveries under way (tests, shutdown). */
  async settle(): Promise<void> {
    while (this.busy) await this.busy;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private async drain(): Promise<void> {
    const now = Date.now();
    const pending = this.options.store.all().filter((run) => run.endedAt && needsDelivery(run));
    const due = pending.filter((run) => (run.delivery.retryAt ?? 0) <= now);
    // One chat's announcements go out in order; different chats do not wait for each other.
    const byChat = new Map<string, SubagentRunRecord[]>();
    for (const run of due.sort((a, b) => a.endedAt! - b.endedAt!)) byChat.set(run.requesterKey, [...(byChat.get(run.requesterKey) ?? []), run]);
    await Promise.all([...byChat.values()].map(async (runs) => {
      for (const run of runs) if (run.delivery.chat === 'pending') await this.deliver(run);
    }));
    const toAgent = due.filter((run) => run.delivery.agent === 'pending');
    if (toAgent.length && this.options.toAgent) this.handToAgent(toAgent);
    this.scheduleRetry();
  }

  private async deliver(run: SubagentRunRecord): Promise<void> {
    const { store, out, settings } = this.options;
    const to: ChatAddress = runAddress(run);
    const parts = planMarkdown(announcementBody(run), {
      header: announcementHeader(run),
      documentOverChars: settings.answerAsDocumentOverChars,
      filename: `subagent-${run.number}-result.md`,
    });
    let current = run;
    try {
      for (let i = current.delivery.sentParts; i < parts.length; i++) {
        await sendPart(out, to, parts[i]!);
        current = { ...current, delivery: { ...current.delivery, sentParts: i + 1 } };
        await store.save(current);
      }
      current = { ...current, delivery: { ...current.delivery, chat: 'sent' } };
      delete current.delivery.retryAt;
      await store.save(this.withArchiveTime(current));
    } catch (error) {
      const attempts = current.delivery.attempts + 1;
      const message = (error as Error).message ?? String(error);
      const gone = isPermanent(error) || attempts >= MAX_ATTEMPTS;
      this.options.log?.(`announcing run ${run.runId} failed (attempt ${attempts}${gone ? ', giving up' : ''}): ${message}`);
      const delivery = { ...current.delivery, attempts, lastError: message, ...(gone ? { chat: 'skipped' as const } : { retryAt: Date.now() + backoff(attempts) }) };
      await store.save(gone ? this.withArchiveTime({ ...current, delivery }) : { ...current, delivery });
    }
  }

  /**
   * Results go back to the main agent as a new turn, which may wait behind the one running:
   * that wait must not hold up other chats' announcements, so it is not awaited here.
   */
  private handToAgent(runs: SubagentRunRecord[]): void {
    const { store } = this.options;
    const fresh = runs.filter((run) => !this.handing.has(run.runId));
    if (!fresh.length) return;
    for (const run of fresh) this.handing.add(run.runId);
    this.options.toAgent!(fresh)
      .then(async () => {
        for (const run of fresh) {
          const latest = store.get(run.runId) ?? run;
          await store.save(this.withArchiveTime({ ...latest, delivery: { ...latest.delivery, agent: 'sent' } }));
        }
      })
      .catch((error) => this.options.log?.(`handing results to the main agent failed: ${(error as Error).message}`))
      .finally(() => {
        for (const run of fresh) this.handing.delete(run.runId);
      });
  }

  /** Runs become archivable once every delivery is done. */
  private withArchiveTime(run: SubagentRunRecord): SubagentRunRecord {
    if (needsDelivery(run)) return run;
    return { ...run, archiveAfter: Date.now() + this.options.settings.subagents.retentionMinutes * 60_000 };
  }

  private scheduleRetry(): void {
    clearTimeout(this.timer);
    const waiting = this.options.store.all().filter((run) => run.endedAt && needsDelivery(run) && run.delivery.retryAt);
    if (!waiting.length || this.closed) return;
    const next = Math.min(...waiting.map((run) => run.delivery.retryAt!));
    this.timer = setTimeout(() => this.kick(), Math.max(50, next - Date.now()));
    this.timer.unref();
  }
}

export function needsDelivery(run: SubagentRunRecord): boolean {
  return run.delivery.chat === 'pending' || run.delivery.agent === 'pending';
}

function backoff(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (attempts - 1));
}

/** The chat is gone or the bot was removed: retrying cannot help. */
function isPermanent(error: unknown): boolean {
  const e = error as { error_code?: number; description?: string };
  return e.error_code === 403 || (e.error_code === 400 && /chat not found|bot was kicked|CHAT_WRITE_FORBIDDEN|have no rights/i.test(e.description ?? ''));
}
