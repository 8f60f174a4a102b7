import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Low } from 'lowdb';
import { openJsonStore } from '../../kernel/store/json-store.ts';
import { own, putOwn } from '../../kernel/store/own.ts';

/** How long a delivery id (or a body) is remembered: a sender's retry (or a person's "Redeliver") within it starts nothing new. */
export const DELIVERY_KEEP_MS = 7 * 24 * 3_600_000;

/** What the first delivery with an id (or a body) started. */
export interface DeliveryRecord {
  at: number;
  /** The id of the first delivery: a body seen again under another id is answered with it. */
  delivery?: string;
  turn?: string;
  run?: string;
}

interface Data {
  /** By `<hook> <delivery id>`. */
  deliveries: Record<string, DeliveryRecord>;
  /** By `<hook> <SHA-256 of the raw body>`, for hooks whose bodies are signed (a signed body is replayable under any id). */
  bodies?: Record<string, DeliveryRecord>;
}

export type Claim =
  { first: true; done(started: Omit<DeliveryRecord, 'at' | 'delivery'>): Promise<void>; release(): Promise<void> } | { first: false; record: DeliveryRecord };

/**
 * The delivery ids of the last 7 days (`X-GitHub-Delivery`, `Idempotency-Key`), and the hashes
 * of the signed bodies of the same days, in `BRIDGE_DATA_DIR/hook-deliveries.json`, each with
 * the turn or run its first delivery started: kept across restarts, pruned as they age. A
 * signed body is a duplicate under any id: whoever saw it once (a proxy, a log) could send it
 * again with a fresh id, and its signature would still hold. An id and a body are written
 * before their work starts, and forgotten again when that work is refused (a retry may then
 * start it). A delivery whose twin is still being started waits for it, and is its duplicate
 * once it started.
 */
export class DeliveryIds {
  private readonly starting = new Map<string, Promise<DeliveryRecord | undefined>>();

  private constructor(private readonly db: Low<Data>) {}

  static async open(dataDir: string): Promise<DeliveryIds> {
    const db = await openJsonStore<Data>(join(dataDir, 'hook-deliveries.json'), { deliveries: {}, bodies: {} });
    db.data.bodies ??= {}; // a file from before bodies were kept
    return new DeliveryIds(db);
  }

  /** Claims one delivery of a webhook, by its id and, when its body is signed, the body itself. */
  async claim(hook: string, delivery: { id: string; body?: Uint8Array }, now = Date.now()): Promise<Claim> {
    const keys: [Record<string, DeliveryRecord>, string][] = [[this.db.data.deliveries, `${hook} ${delivery.id}`]];
    if (delivery.body) keys.push([this.db.data.bodies!, `${hook} ${createHash('sha256').update(delivery.body).digest('hex')}`]);
    const startingKey = (table: Record<string, DeliveryRecord>, key: string) => `${table === this.db.data.deliveries ? 'id' : 'body'} ${key}`;
    // A twin still starting is waited for: its record is the answer, or it was refused and this one goes ahead.
    for (;;) {
      const twin = keys.map(([table, key]) => this.starting.get(startingKey(table, key))).find(Boolean);
      if (!twin) break;
      const started = await twin;
      if (started) return { first: false, record: started };
    }
    for (const [table, key] of keys) {
      const known = own(table, key);
      if (known && known.at > now - DELIVERY_KEEP_MS) return { first: false, record: known };
    }
    let settle!: (record: DeliveryRecord | undefined) => void;
    const settled = new Promise<DeliveryRecord | undefined>((resolve) => (settle = resolve));
    for (const [table, key] of keys) this.starting.set(startingKey(table, key), settled);
    // Written before the work starts: a bridge killed in between leaves an id that starts nothing new, not a second turn.
    this.prune(now);
    const put = (record: DeliveryRecord | undefined) => {
      for (const [table, key] of keys) {
        if (record) putOwn(table, key, record);
        else delete table[key];
        this.starting.delete(startingKey(table, key));
      }
      settle(record);
      return this.db.write();
    };
    for (const [table, key] of keys) putOwn(table, key, { at: now, delivery: delivery.id });
    await this.db.write();
    return {
      first: true,
      done: (started) => put({ at: now, delivery: delivery.id, ...started }),
      release: () => put(undefined),
    };
  }

  private prune(now: number): void {
    for (const table of [this.db.data.deliveries, this.db.data.bodies!])
      for (const [key, record] of Object.entries(table)) if (record.at <= now - DELIVERY_KEEP_MS) delete table[key];
  }
}
