import { join } from 'node:path';
import type { Low } from 'lowdb';
import { openJsonStore } from '../../kernel/store/json-store.ts';
import { own, putOwn } from '../../kernel/store/own.ts';
import { wholeChatKey, type ChatRef } from '../../kernel/ports/chat.ts';

/** What an admin said of a person in one chat, and who said it when. */
export interface Standing {
  /** `allowed`: they may use the bridge here (and start turns where only the named may); `denied`: refused here, whatever the lists say. */
  is: 'allowed' | 'denied';
  /** Their name when it was said, for the list: ids alone say little. */
  name?: string;
  /** Who said it (`<transport>:<id>`), and their name then. */
  by: string;
  byName?: string;
  at: number;
}

interface Data {
  /** Whole chat (`<transport>:<chat>`) → person (`<transport>:<id>`) → their standing: a chat's threads share its people. */
  chats: Record<string, Record<string, Standing>>;
}

/**
 * Who an admin allowed or denied in a chat (/allow, /deny), over BRIDGE_ALLOWED_USERS: kept in
 * `BRIDGE_DATA_DIR/chat-people.json`, read on every message from memory.
 */
export class ChatPeople {
  private constructor(private readonly db: Low<Data>) {}

  static async open(dataDir: string): Promise<ChatPeople> {
    return new ChatPeople(await openJsonStore(join(dataDir, 'chat-people.json'), { chats: {} }));
  }

  /** What was said of this person in this chat; none: nothing, the lists decide. */
  standing(chat: ChatRef, person: string): Standing | undefined {
    const people = own(this.db.data.chats, wholeChatKey(chat));
    return people && own(people, person);
  }

  /** Whether some chat allowed this person by name: they may log in to the pages, which show them that chat. */
  allowedAnywhere(person: string): boolean {
    return Object.values(this.db.data.chats).some((people) => own(people, person)?.is === 'allowed');
  }

  /** Everyone something was said of in this chat, the latest first. */
  list(chat: ChatRef): (Standing & { person: string })[] {
    const people = own(this.db.data.chats, wholeChatKey(chat)) ?? {};
    return Object.entries(people)
      .map(([person, standing]) => ({ person, ...standing }))
      .sort((a, b) => b.at - a.at);
  }

  /** Says this of the person in this chat; returns what was said before, if anything. */
  async set(chat: ChatRef, person: string, standing: Standing): Promise<Standing | undefined> {
    const key = wholeChatKey(chat);
    let people = own(this.db.data.chats, key);
    if (!people) putOwn(this.db.data.chats, key, (people = {}));
    const before = own(people, person);
    putOwn(people, person, standing);
    await this.db.write();
    return before;
  }
}
