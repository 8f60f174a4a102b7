import { join } from 'node:path';
import type { Context, MiddlewareFn } from 'grammy';
import type { Update } from 'grammy/types';
import { openJsonStore } from '../../kernel/store/json-store.ts';
import { ConfigError } from '../../kernel/errors/config-error.ts';
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
 * tells Telegram an update is taken as soon as it asks for the next ones, while a chat's
 * messages wait their turn behind each other (a file downloading, a command running): a bridge
 * killed then would lose them. So each batch is written here as it arrives, before the runner
 * may ask for the next (`received`), and each message stays until its handler has returned
 * (by then the bridge has it in the chat's record); those left at a start are handled first,
 * in order. An update Telegram gives again after a restart is dropped.
 */
export class UpdateJournal {
  private readonly seen: Set<number>;
  /** Updates Telegram gave again (it was not told they were taken): handled already, or being replayed. */
  private readonly again = new Set<number>();

  private constructor(private readonly db: Low<JournalData>) {
    this.seen = new Set(db.data.seen);
  }

  /**
   * Written once at once: a journal that cannot write would fail at every getUpdates, and the
   * bridge would take nothing from Telegram while looking up, so that stops the start instead.
   */
  static async open(dataDir: string): Promise<UpdateJournal> {
    const file = join(dataDir, 'telegram-updates.json');
    const db = await openJsonStore<JournalData>(file, { pending: {}, seen: [] });
    try {
      await db.write();
    } catch (error) {
      throw new ConfigError(
        `${file}: cannot keep the messages taken from Telegram (${(error as Error).message}); the bridge must be able to write in BRIDGE_DATA_DIR`,
      );
    }
    return new UpdateJournal(db);
  }

  /** A batch from getUpdates, kept before anything asks for the next batch (which tells Telegram it is taken). */
  async received(updates: readonly Update[]): Promise<void> {
    let kept = false;
    for (const update of updates) {
      const id = update.update_id;
      if (this.seen.has(id)) {
        this.again.add(id);
        continue;
      }
      if (!update.message) continue;
      this.seen.add(id);
      // A set keeps its order: the first is the oldest.
      if (this.seen.size > SEEN_KEPT) this.seen.delete(this.seen.values().next().value!);
      this.db.data.pending[String(id)] = update;
      kept = true;
    }
    if (!kept) return;
    this.db.data.seen = [...this.seen];
    await this.db.write();
  }

  /** First in the chain, before updates wait for their chat: drops what came again, and lets a message go once it is handled. */
  middleware(): MiddlewareFn<Context> {
    return async (ctx, next) => {
      const id = ctx.update.update_id;
      if (this.again.delete(id)) return;
      if (!ctx.update.message) return next();
      try {
        await next();
      } finally {
        await this.handled(id);
      }
    };
  }

  /** The messages a previous run of the bridge took and did not hand over, oldest first; each is handled through `handle`. */
  async replay(handle: (update: Update) => Promise<void>): Promise<number> {
    const left = Object.values(this.db.data.pending).sort((a, b) => a.update_id - b.update_id);
    for (const update of left) await handle(update);
    return left.length;
  }

  private async handled(id: number): Promise<void> {
    if (!(String(id) in this.db.data.pending)) return;
    delete this.db.data.pending[String(id)];
    await this.db.write();
  }
}
