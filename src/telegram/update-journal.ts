import { join } from 'node:path';
import type { Context, MiddlewareFn } from 'grammy';
import type { Update } from 'grammy/types';
import { openJsonStore } from '../store/json-store.ts';
import type { Low } from 'lowdb';

interface JournalData {
  /** Messages received and not yet handed over (their chat may be busy with the one before). */
  pending: Record<string, Update>;
  /** The ids of the newest updates taken, handled or not: Telegram gives again what it was not told was taken. */
  seen: number[];
}

/** How many update ids are remembered as seen: far more than Telegram could give again. */
const SEEN_KEPT = 2000;

/**
 * The messages the bot has received and not yet handed to the bridge, on disk. The runner
 * tells Telegram an update is taken as soon as it fetches the next ones, while a chat's
 * messages wait their turn behind each other (a file downloading, a command running): a bridge
 * killed then would lose them. Each message is kept from its arrival until its handler has
 * returned (by then the bridge has it in the chat's record), and those left at a start are
 * handled first, in order. An update Telegram gives again after a restart is dropped.
 */
export class UpdateJournal {
  private readonly seen: Set<number>;
  private readonly replaying = new Set<number>();

  private constructor(private readonly db: Low<JournalData>) {
    this.seen = new Set(db.data.seen);
  }

  static async open(dataDir: string): Promise<UpdateJournal> {
    return new UpdateJournal(await openJsonStore<JournalData>(join(dataDir, 'telegram-updates.json'), { pending: {}, seen: [] }));
  }

  /** First in the chain, before updates wait for their chat: keeps each message until it is handled. */
  middleware(): MiddlewareFn<Context> {
    return async (ctx, next) => {
      const { update } = ctx;
      const id = update.update_id;
      if (this.seen.has(id) && !this.replaying.has(id)) return; // given again after a restart
      if (!update.message) return next();
      // Not awaited before going on: the updates of a batch reach their chats' queues in order.
      const kept = this.keep(update);
      try {
        await next();
      } finally {
        await kept;
        await this.handled(id);
      }
    };
  }

  /** The messages a previous run of the bridge took and did not hand over, oldest first; each is handled through `handle`. */
  async replay(handle: (update: Update) => Promise<void>): Promise<number> {
    const left = Object.values(this.db.data.pending).sort((a, b) => a.update_id - b.update_id);
    for (const update of left) {
      this.replaying.add(update.update_id);
      try {
        await handle(update);
      } finally {
        this.replaying.delete(update.update_id);
      }
    }
    return left.length;
  }

  private async keep(update: Update): Promise<void> {
    this.seen.add(update.update_id);
    // A set keeps its order: the first is the oldest.
    if (this.seen.size > SEEN_KEPT) this.seen.delete(this.seen.values().next().value!);
    this.db.data.pending[String(update.update_id)] = update;
    this.db.data.seen = [...this.seen];
    await this.db.write();
  }

  private async handled(id: number): Promise<void> {
    delete this.db.data.pending[String(id)];
    await this.db.write();
  }
}
