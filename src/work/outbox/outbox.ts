import { TransportNotServedError } from '../../kernel/ports/transport.ts';
import { chatKey, ChatUnreachableError, type ChatRef, type MessageFit, type Outbound } from '../../kernel/ports/chat.ts';
import { sendPart, type Part } from '../presentation/deliver.ts';
import type { Delivery } from '../subagents/delivery.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { contextOf, type TraceCarrier } from '../../services/telemetry/trace-context.ts';
import { traceDelivery } from '../../services/telemetry/traced-agent.ts';
import { delay } from '../../kernel/concurrency/delay.ts';

/** An announcement's key in the outbox's own sets (the calls it began, those it leaves for now, the hand-backs on their way). */
const keyOf = (source: AnnouncementSource, id: string) => `${source.name}:${id}`;

/** Retries back off from 1 s to 5 min; a destination that is gone for good is given up after this many. */
const MAX_BACKOFF_MS = 5 * 60_000;
const MAX_ATTEMPTS = 30;

/** One thing to announce: an ended run, an ended orchestration. */
export interface Announcement {
  /** Unique across sources. */
  id: string;
  address: ChatRef;
  /** One chat's announcements go out in this order. */
  endedAt: number;
  delivery: Delivery;
  /** The trace of the work it announces: its delivery is a span of it. */
  trace?: TraceCarrier;
  /**
   * Planned from the saved record, for the messages of the transport it goes out on, so the
   * same every time: a resumed delivery skips what was sent.
   */
  parts(fit: MessageFit): Part[];
}

/** A kind of record the outbox announces, and where their delivery state is saved. */
export interface AnnouncementSource {
  /** What its records are called in the log: "run", "orchestration". */
  name: string;
  /** Ended records with a chat or agent delivery still pending. */
  pending(): Announcement[];
  /**
   * Merges a change into an announcement's saved delivery state (an undefined field is
   * removed); resolves once it is on disk. A patch, so the chat's and the agent's deliveries,
   * running side by side, never overwrite each other.
   */
  save(id: string, patch: Partial<Delivery>): Promise<void>;
  /** Gives the outcome to the main agent that asked for the work; resolves once it is queued as a turn. */
  toAgent?(ids: string[]): Promise<void>;
}

export interface OutboxOptions {
  out: Outbound;
  sources: AnnouncementSource[];
  log: Log;
}

/**
 * The one durable outbox: everything the bridge announces goes out exactly once. Each part's
 * sending is saved before the next one goes, so a 429, a 5xx, a dropped connection or a
 * restart resumes at the first part not yet sent and never sends one twice. A chat that is
 * gone for good (403, chat not found) is given up at once, and said so in the record.
 */
export class Outbox {
  private busy: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly handing = new Set<string>();
  /** Announcements whose calls this process began: a `sending` mark of theirs is its own, not a previous process's. */
  private readonly started = new Set<string>();
  /**
   * Announcements this process tried and could not deliver for now (their transport is not
   * served here, or the hand-back to the agent failed): the next kick tries them again, but
   * nobody waits for them.
   */
  private readonly notNow = new Set<string>();

  constructor(private readonly options: OutboxOptions) {}

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

  /** No delivery under way or due, and no result on its way to an agent. */
  isIdle(): boolean {
    return this.busy === undefined && this.handing.size === 0 && !this.anyDue();
  }

  /**
   * Resolves once nothing is under way or due. An ended record's announcement is due from the
   * moment its end is saved, before whoever saved it has kicked the outbox (the console's end of
   * input must not leave in that gap).
   */
  async idle(): Promise<void> {
    for (;;) {
      await this.settle();
      if (this.isIdle()) return;
      if (!this.busy && this.anyDue()) this.kick();
      await delay(50);
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** The pending announcements whose time has come (none still waiting out a retry's back-off). */
  private dueNow(): { source: AnnouncementSource; a: Announcement }[] {
    const now = Date.now();
    return this.options.sources.flatMap((source) =>
      source
        .pending()
        .filter((a) => (a.delivery.retryAt ?? 0) <= now)
        .map((a) => ({ source, a })),
    );
  }

  /** Whether a drain would send something now. A closed outbox sends nothing, so nothing is due. */
  private anyDue(): boolean {
    if (this.closed) return false;
    return this.dueNow().some(
      ({ source, a }) =>
        !this.notNow.has(keyOf(source, a.id)) && (a.delivery.chat === 'pending' || (a.delivery.agent === 'pending' && source.toAgent !== undefined)),
    );
  }

  private async drain(): Promise<void> {
    const due = this.dueNow();
    // One chat's announcements go out in order; different chats do not wait for each other.
    const byChat = new Map<string, typeof due>();
    for (const item of due.sort((x, y) => x.a.endedAt - y.a.endedAt)) {
      const key = chatKey(item.a.address);
      byChat.set(key, [...(byChat.get(key) ?? []), item]);
    }
    await Promise.all(
      [...byChat.values()].map(async (items) => {
        for (const { source, a } of items) if (a.delivery.chat === 'pending') await this.deliver(source, a);
      }),
    );
    for (const source of this.options.sources) {
      const ids = due.filter((item) => item.source === source && item.a.delivery.agent === 'pending').map((item) => item.a.id);
      if (ids.length && source.toAgent) this.handToAgent(source, ids);
    }
    this.scheduleRetry();
  }

  private async deliver(source: AnnouncementSource, announcement: Announcement): Promise<void> {
    const parts = announcement.parts(this.options.out.fit(announcement.address));
    const { delivery } = announcement;
    if (delivery.sending !== undefined && !this.started.has(keyOf(source, announcement.id))) {
      // The one duplicate the Bot API cannot rule out: the chat may have the part already, and it goes again rather than never.
      this.options.log.warn(
        { [source.name]: announcement.id, chat: chatKey(announcement.address), part: delivery.sentParts + 1 },
        `the bridge stopped while announcing it (the call began ${new Date(delivery.sending).toISOString()}): whether the chat got that part is unknown, so it goes again`,
      );
    }
    try {
      await traceDelivery(contextOf(announcement.trace), announcement.address.transport, async () => {
        for (let i = delivery.sentParts; i < parts.length; i++) {
          // Saved before the call: a stop during it leaves word that its outcome is unknown.
          await source.save(announcement.id, { sending: Date.now() });
          this.started.add(keyOf(source, announcement.id));
          await sendPart(this.options.out, announcement.address, parts[i]!);
          await source.save(announcement.id, { sentParts: i + 1, sending: undefined });
        }
      });
      await source.save(announcement.id, { chat: 'sent', retryAt: undefined });
      this.notNow.delete(keyOf(source, announcement.id));
    } catch (error) {
      // Its transport is not served now: it waits, untried, for a bridge that serves it.
      if (error instanceof TransportNotServedError) {
        this.notNow.add(keyOf(source, announcement.id));
        await source.save(announcement.id, { sending: undefined });
        return;
      }
      const attempts = delivery.attempts + 1;
      const message = (error as Error).message ?? String(error);
      // The chat is gone or the bot was removed: retrying cannot help.
      const gone = error instanceof ChatUnreachableError || attempts >= MAX_ATTEMPTS;
      this.options.log.warn(
        { [source.name]: announcement.id, chat: chatKey(announcement.address) },
        `announcing failed (attempt ${attempts}${gone ? ', giving up' : ''}): ${message}`,
      );
      await source.save(announcement.id, {
        attempts,
        lastError: message,
        // Refused or not made (the API client retries what it can): this process knows how it went.
        sending: undefined,
        ...(gone ? { chat: 'skipped' as const, retryAt: undefined } : { retryAt: Date.now() + Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (attempts - 1)) }),
      });
    }
  }

  /**
   * The hand-back is a new turn of the main agent, which may wait behind the one running:
   * that wait must not hold up other chats' announcements, so it is not awaited here.
   */
  private handToAgent(source: AnnouncementSource, ids: string[]): void {
    const key = (id: string) => keyOf(source, id);
    const fresh = ids.filter((id) => !this.handing.has(key(id)));
    if (!fresh.length) return;
    for (const id of fresh) this.handing.add(key(id));
    source.toAgent!(fresh)
      .then(async () => {
        for (const id of fresh) {
          await source.save(id, { agent: 'sent' });
          this.notNow.delete(key(id));
        }
      })
      .catch((error: Error) => {
        for (const id of fresh) this.notNow.add(key(id));
        this.options.log.warn({ [source.name]: fresh.join(',') }, `handing results to the main agent failed: ${error.message}`);
      })
      .finally(() => {
        for (const id of fresh) this.handing.delete(key(id));
      });
  }

  private scheduleRetry(): void {
    clearTimeout(this.timer);
    const waiting = this.options.sources.flatMap((source) => source.pending()).filter((a) => a.delivery.retryAt);
    if (!waiting.length || this.closed) return;
    const next = Math.min(...waiting.map((a) => a.delivery.retryAt!));
    this.timer = setTimeout(() => this.kick(), Math.max(50, next - Date.now()));
    this.timer.unref();
  }
}
