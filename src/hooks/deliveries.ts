import { join } from 'node:path';
import type { Low } from 'lowdb';
import { openJsonStore } from '../store/json-store.ts';
import { own } from '../store/own.ts';

/** How long a delivery id is remembered: a sender's retry (or a person's "Redeliver") within it starts nothing new. */
export const DELIVERY_KEEP_MS = 7 * 24 * 3_600_000;

/** What the first delivery with an id started. */
export interface DeliveryRecord {
  at: number;
  turn?: string;
  run?: string;
}

interface Data {
  /** By `<hook> <delivery id>`. */
  deliveries: Record<string, DeliveryRecord>;
}

export type Claim =
  { first: true; done(started: Omit<DeliveryRecord, 'at'>): Promise<void>; release(): Promise<void> } | { first: false; record: DeliveryRecord };

/**
 * The delivery ids of the last 7 days (`X-GitHub-Delivery`, `Idempotency-Key`), in
 * `BRIDGE_DATA_DIR/hook-deliveries.json`, each with the turn or run its first delivery started:
 * kept across restarts, pruned as they age. An id is written before its work starts, and
 * forgotten again when that work is refused (a retry may then start it). A delivery whose twin
 * is still being started waits for it, and is its duplicate once it started.
 */
export class DeliveryIds {
  private readonly starting = new Map<string, Promise<DeliveryRecord | undefined>>();

  private constructor(private readonly db: Low<Data>) {}

  static async open(dataDir: string): Promise<DeliveryIds> {
    return new DeliveryIds(await openJsonStore<Data>(join(dataDir, 'hook-deliveries.json'), { deliveries: {} }));
  }

  async claim(hook: string, id: string, now = Date.now()): Promise<Claim> {
    const key = `${hook} ${id}`;
    // A twin still starting is waited for: its id is the answer, or it was refused and this one goes ahead.
    for (let twin = this.starting.get(key); twin; twin = this.starting.get(key)) {
      const started = await twin;
      if (started) return { first: false, record: started };
    }
    const known = own(this.db.data.deliveries, key);
    if (known && known.at > now - DELIVERY_KEEP_MS) return { first: false, record: known };
    let settle!: (record: DeliveryRecord | undefined) => void;
    this.starting.set(key, new Promise((resolve) => (settle = resolve)));
    // Written before the work starts: a bridge killed in between leaves an id that starts nothing new, not a second turn.
    this.prune(now);
    this.db.data.deliveries[key] = { at: now };
    await this.db.write();
    return {
      first: true,
      done: async (started) => {
        const record = { at: now, ...started };
        this.db.data.deliveries[key] = record;
        this.starting.delete(key);
        settle(record);
        await this.db.write();
      },
      release: async () => {
        delete this.db.data.deliveries[key];
        this.starting.delete(key);
        settle(undefined);
        await this.db.write();
      },
    };
  }

  private prune(now: number): void {
    for (const [key, record] of Object.entries(this.db.data.deliveries)) if (record.at <= now - DELIVERY_KEEP_MS) delete this.db.data.deliveries[key];
  }
}
