import { join } from 'node:path';
import { MemoryStore, type ISyncResponse } from 'matrix-js-sdk';
import { KeptJson } from '../../kernel/store/kept-json.ts';

/** What the bot remembers of a room across restarts: whether it is a private chat. */
export interface KeptRoom {
  direct: boolean;
}

interface Kept {
  since?: string;
  rooms?: Record<string, KeptRoom>;
}

/** Rooms remembered: the newest this many. */
const MAX_ROOMS = 5000;

/**
 * The SDK's store, in memory as its MemoryStore is, but for the /sync token, kept in the data
 * directory (`matrix-sync.json`) once each sync's events were handed on: a restart resumes from
 * it, so the homeserver sends only what came since, and nothing is taken twice. The rooms the
 * bot joined are remembered with it, as a resumed sync carries none of their state.
 */
export class KeptSync extends MemoryStore {
  private since: string | undefined;
  private readonly known = new Map<string, KeptRoom>();

  private constructor(private readonly file: KeptJson) {
    super();
  }

  static async open(dataDir: string): Promise<KeptSync> {
    const store = new KeptSync(new KeptJson(join(dataDir, 'matrix-sync.json')));
    const kept = ((await store.file.read()) ?? {}) as Kept;
    if (typeof kept.since === 'string') store.since = kept.since;
    for (const [room, value] of Object.entries(kept.rooms ?? {})) store.known.set(room, { direct: value?.direct === true });
    return store;
  }

  /** Whether the bot synced before: what comes in its first sync is then new, not history. */
  get resumed(): boolean {
    return this.since !== undefined;
  }

  override getSavedSyncToken(): Promise<string | null> {
    return Promise.resolve(this.since ?? null);
  }

  override async setSyncData(data: ISyncResponse): Promise<void> {
    await super.setSyncData(data);
    this.since = data.next_batch;
    await this.save();
  }

  room(roomId: string): KeptRoom | undefined {
    return this.known.get(roomId);
  }

  keepRoom(roomId: string, room: KeptRoom): Promise<void> {
    this.known.delete(roomId);
    this.known.set(roomId, room);
    if (this.known.size > MAX_ROOMS) this.known.delete(this.known.keys().next().value!);
    return this.save();
  }

  forgetRoom(roomId: string): Promise<void> {
    this.known.delete(roomId);
    return this.save();
  }

  override save(): Promise<void> {
    return this.file.write(() => ({ since: this.since, rooms: Object.fromEntries(this.known) }));
  }
}
