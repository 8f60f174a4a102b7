/** How one call to a chat app's API went: answered, refused for its rate (a 429), or failed otherwise. */
export type CallOutcome = 'ok' | 'rate_limited' | 'error';

/** What a send budget tells of its calls (the chat apps' metrics: telemetry/metrics-chat-apps). */
export interface SendMeter {
  /** A call was made and answered so (a 429 counts as a rate limit too). */
  called(outcome: CallOutcome): void;
  waited(ms: number): void;
  /** A 429 the app's client waited out itself, below the send budget (it never reaches `called`). */
  rateLimited(): void;
}

/** How many calls one chat may take in a window: its app's rule (a message a second, twenty a minute). */
export interface ChatLimit {
  max: number;
  windowMs: number;
}

/** A margin for clocks, so a call the budget lets through is not one its app counts as too early. */
const MARGIN_MS = 100;

type Priority = 'message' | 'edit';

/** A call that has not answered in this long stops holding up its chat's next calls (it still counts). */
const STALL_MS = 5000;

interface Job {
  priority: Priority;
  /** Edits of one message share a key: a newer one replaces one still waiting. */
  mergeKey: string | undefined;
  run: () => Promise<unknown>;
  settle: { resolve(value: unknown): void; reject(error: unknown): void }[];
  /** When it was asked for: how long it waited, once it is made. */
  queuedAt: number;
}

interface Lane {
  jobs: Job[];
  /**
   * The calls of the current window: when each was answered (the app counted it before that),
   * or started, while it is in flight.
   */
  sentAt: number[];
  /** The call that holds the lane, until it answers or stalls. */
  current: Job | undefined;
  /** No call before this (a 429's retry_after). */
  pausedUntil: number;
  timer: NodeJS.Timeout | undefined;
}

export interface SendBudgetOptions {
  /** Each chat's limit, by the key its calls are scheduled under. */
  limits: (chat: string) => ChatLimit;
  /** Seconds the app asked to wait, when `error` says it is rate limited (a 429); the call is then tried again. */
  retryAfter?: (error: unknown) => number | undefined;
  /** Told of each call's outcome and of how long it waited for the budget (the transport's metrics). */
  meter?: SendMeter;
}

/**
 * One send budget per chat: calls wait their turn so the chat never passes its limit; new
 * messages (answers, announcements, questions) go ahead of edits; an edit still waiting is
 * replaced by a newer one of the same message, both callers getting its outcome. A chat's
 * calls run one at a time, in order, and a 429 pauses that chat only, for its `retry_after`,
 * before the call is tried again. A call that hangs holds its chat for a few seconds at most.
 */
export class SendBudget {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly options: SendBudgetOptions) {}

  /** Runs `call` within `chat`'s budget. */
  schedule<T>(chat: string, priority: Priority, call: () => Promise<T>, mergeKey?: string): Promise<T> {
    const lane = this.lane(chat);
    return new Promise<T>((resolve, reject) => {
      const settle = { resolve: resolve as (value: unknown) => void, reject };
      const waiting = mergeKey === undefined ? undefined : lane.jobs.find((job) => job.mergeKey === mergeKey);
      if (waiting) {
        waiting.run = call;
        if (priority === 'message') waiting.priority = priority; // an urgent edit takes a waiting one's place, and its rank
        waiting.settle.push(settle);
      } else {
        lane.jobs.push({ priority, mergeKey, run: call, settle: [settle], queuedAt: Date.now() });
      }
      this.pump(chat, lane);
    });
  }

  /**
   * Whether the chat's sending is short: calls waiting or in flight, a 429's pause, or a
   * quarter of its window used (a group's burst of turns then fits in one window, answers
   * only): what can be left out should be.
   */
  crowded(chat: string): boolean {
    const lane = this.lanes.get(chat);
    if (!lane) return false;
    const now = Date.now();
    if (lane.jobs.length || lane.current || lane.pausedUntil > now) return true;
    const { max, windowMs } = this.options.limits(chat);
    return lane.sentAt.filter((at) => now - at < windowMs + MARGIN_MS).length * 4 >= max;
  }

  private lane(chat: string): Lane {
    const lane = this.lanes.get(chat) ?? { jobs: [], sentAt: [], current: undefined, pausedUntil: 0, timer: undefined };
    this.lanes.set(chat, lane);
    return lane;
  }

  private pump(chat: string, lane: Lane): void {
    if (lane.current || lane.timer || !lane.jobs.length) return;
    const { max, windowMs } = this.options.limits(chat);
    const now = Date.now();
    lane.sentAt = lane.sentAt.filter((at) => now - at < windowMs + MARGIN_MS);
    const readyAt = Math.max(lane.pausedUntil, lane.sentAt.length >= max ? Math.min(...lane.sentAt) + windowMs + MARGIN_MS : 0);
    if (readyAt > now) {
      lane.timer = setTimeout(() => {
        lane.timer = undefined;
        this.pump(chat, lane);
      }, readyAt - now);
      return;
    }
    const index = lane.jobs.findIndex((job) => job.priority === 'message');
    const job = lane.jobs.splice(index >= 0 ? index : 0, 1)[0]!;
    lane.current = job;
    // Counted from its start while in flight, from its answer once answered: a request can take a
    // while to reach the app (a busy machine), and the app counts it when it arrives.
    const counted = { at: now };
    lane.sentAt.push(now);
    const answered = () => {
      const index = lane.sentAt.indexOf(counted.at);
      if (index >= 0) lane.sentAt[index] = counted.at = Date.now();
    };
    const release = () => {
      if (lane.current !== job) return;
      lane.current = undefined;
      this.pump(chat, lane);
    };
    const stalled = setTimeout(release, STALL_MS);
    const made = (outcome: CallOutcome) => {
      this.options.meter?.called(outcome);
      if (outcome !== 'rate_limited') this.options.meter?.waited(now - job.queuedAt);
    };
    job
      .run()
      .then(
        (value) => {
          made('ok');
          job.settle.forEach((s) => s.resolve(value));
        },
        (error: unknown) => {
          const wait = this.options.retryAfter?.(error);
          made(wait === undefined ? 'error' : 'rate_limited');
          if (wait === undefined) return job.settle.forEach((s) => s.reject(error));
          // The app says this chat is over its limit: it waits, and the call goes first when it may.
          lane.pausedUntil = Math.max(lane.pausedUntil, Date.now() + wait * 1000);
          lane.jobs.unshift(job);
        },
      )
      .finally(() => {
        answered();
        clearTimeout(stalled);
        release();
      });
  }
}
