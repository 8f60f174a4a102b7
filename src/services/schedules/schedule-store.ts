import { join } from 'node:path';
import type { Low } from 'lowdb';
import { nextChatNumber } from '../../kernel/store/chat-numbers.ts';
import { openJsonStore } from '../../kernel/store/json-store.ts';
import type { Schedule } from './schedule.ts';
import { putOwn } from '../../kernel/store/own.ts';

interface Data {
  /** The last #number given out per chat: never reused. */
  numbers: Record<string, number>;
  schedules: Record<string, Schedule>;
}

/** Every chat's schedules, in `BRIDGE_DATA_DIR/schedules.json`, written before each change is acted on. */
export class ScheduleStore {
  private constructor(private readonly db: Low<Data>) {}

  static async open(dataDir: string): Promise<ScheduleStore> {
    return new ScheduleStore(await openJsonStore<Data>(join(dataDir, 'schedules.json'), { numbers: {}, schedules: {} }));
  }

  all(): Schedule[] {
    return Object.values(this.db.data.schedules);
  }

  forChat(chatKey: string): Schedule[] {
    return this.all()
      .filter((s) => s.chatKey === chatKey)
      .sort((a, b) => a.number - b.number);
  }

  find(chatKey: string, ref: string): Schedule | undefined {
    const number = Number(ref.replace(/^#/, ''));
    return this.forChat(chatKey).find((s) => s.number === number || s.id === ref);
  }

  nextNumber(chatKey: string): number {
    return nextChatNumber(this.db.data.numbers, chatKey);
  }

  async save(schedule: Schedule): Promise<void> {
    putOwn(this.db.data.schedules, schedule.id, schedule);
    await this.db.write();
  }

  async delete(id: string): Promise<void> {
    delete this.db.data.schedules[id];
    await this.db.write();
  }
}
