import { join } from 'node:path';
import type { Low } from 'lowdb';
import { openJsonStore } from '../../kernel/store/json-store.ts';

/** Ids remembered at most: far more than Slack redelivers in the minutes it retries. */
const MAX_IDS = 5000;
/** How long an id is remembered: Slack retries an event for minutes (after 1 and 5 minutes), never an hour later. */
const KEEP_MS = 60 * 60_000;

interface Data {
  /** Each id taken, with when. */
  ids: Record<string, number>;
}

/**
 * The events, commands and presses already taken, by Slack's own id (event_id, trigger_id):
 * Slack sends one again when it missed the ack (a dropped connection, a slow network), and a
 * message taken twice would start two turns. Kept in the data directory, written before the
 * event is handed on: a redelivery that arrives after a restart is still known.
 */
export class SeenEvents {
  private constructor(private readonly db: Low<Data>) {}

  static async open(dataDir: string): Promise<SeenEvents> {
    const db = await openJsonStore<Data>(join(dataDir, 'slack-seen.json'), { ids: {} });
    if (typeof db.data.ids !== 'object' || db.data.ids === null) db.data.ids = {};
    return new SeenEvents(db);
  }

  /** True the first time an id is offered (once it is written down); false for a redelivery. */
  async first(id: string | undefined, now = Date.now()): Promise<boolean> {
    if (id === undefined) return true;
    const { ids } = this.db.data;
    if (Object.hasOwn(ids, id) && ids[id]! > now - KEEP_MS) return false;
    ids[id] = now;
    this.prune(now);
    await this.db.write();
    return true;
  }

  /** The expired, then the oldest past MAX_IDS (ids are kept in the order they came). */
  private prune(now: number): void {
    const { ids } = this.db.data;
    let count = Object.keys(ids).length;
    for (const [id, at] of Object.entries(ids)) {
      if (at > now - KEEP_MS && count <= MAX_IDS) break;
      delete ids[id];
      count--;
    }
  }
}
