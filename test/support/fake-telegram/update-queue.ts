import type { Update } from 'grammy/types';
import { ApiError, defaultDescription } from './api-error.ts';

/**
 * Pending updates and getUpdates long polling as Telegram does it: updates stay queued until a
 * later call confirms them with a higher `offset`; a call with nothing to return waits up to
 * `timeout` seconds and answers as soon as an update arrives; a second concurrent call
 * terminates the first with 409 Conflict.
 */

export type UpdatePayload = Omit<Update, 'update_id'>;

export interface PollRequest {
  readonly offset: number | undefined;
  readonly limit: number;
  readonly timeoutSeconds: number;
  readonly allowedUpdates: readonly string[] | undefined;
  /** Aborted when the client goes away; the poll then ends quietly. */
  readonly signal: AbortSignal;
}

// Telegram leaves these out unless asked for by name.
const OPT_IN_TYPES = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

interface Waiter {
  wake(): void;
  supersede(): void;
  close(): void;
}

const typeOf = (update: Update) => Object.keys(update).find((key) => key !== 'update_id') ?? '';

export class UpdateQueue {
  private pending: Update[] = [];
  private nextUpdateId: number;
  private allowed: ReadonlySet<string> | undefined;
  private waiter: Waiter | undefined;
  private closed = false;

  constructor(firstUpdateId: number) {
    this.nextUpdateId = firstUpdateId;
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  push(payload: UpdatePayload): Update {
    const update = { update_id: this.nextUpdateId++, ...payload };
    this.pending.push(update);
    this.waiter?.wake();
    return update;
  }

  dropPending(): void {
    this.pending = [];
  }

  /** Ends a waiting poll with no updates; used on shutdown. */
  close(): void {
    this.closed = true;
    this.waiter?.close();
  }

  poll(request: PollRequest): Promise<Update[]> {
    this.confirm(request.offset);
    if (request.allowedUpdates !== undefined) {
      this.allowed = request.allowedUpdates.length > 0 ? new Set(request.allowedUpdates) : undefined;
    }
    this.waiter?.supersede();
    const ready = this.take(request.limit);
    if (ready.length > 0 || request.timeoutSeconds <= 0 || this.closed) return Promise.resolve(ready);

    return new Promise<Update[]>((resolve, reject) => {
      const finish = (outcome: Update[] | ApiError) => {
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        if (this.waiter === waiter) this.waiter = undefined;
        if (outcome instanceof ApiError) reject(outcome);
        else resolve(outcome);
      };
      const waiter: Waiter = {
        wake: () => {
          const updates = this.take(request.limit);
          if (updates.length > 0) finish(updates);
        },
        supersede: () => finish(new ApiError(409, defaultDescription(409))),
        close: () => finish([]),
      };
      const onAbort = () => finish([]);
      const timer = setTimeout(() => finish([]), request.timeoutSeconds * 1000);
      request.signal.addEventListener('abort', onAbort);
      this.waiter = waiter;
    });
  }

  private confirm(offset: number | undefined): void {
    if (offset === undefined || offset === 0) return;
    // A negative offset keeps only the last -offset updates and forgets the rest.
    this.pending = offset > 0 ? this.pending.filter((u) => u.update_id >= offset) : this.pending.slice(offset);
  }

  /** The first `limit` deliverable updates; updates of types not subscribed to are dropped. */
  private take(limit: number): Update[] {
    const allowed = this.allowed;
    this.pending = this.pending.filter((u) => {
      const type = typeOf(u);
      return allowed ? allowed.has(type) : !OPT_IN_TYPES.has(type);
    });
    return this.pending.slice(0, limit);
  }
}
