import { userKey, wholeChatKey, type ChatRef, type ChatUser } from '../../kernel/ports/chat.ts';

/** A person by the name the bridge saw them under. */
export interface SeenPerson {
  /** `<transport>:<id>`. */
  person: string;
  name: string;
}

/** People remembered per chat, and chats: enough for a team's groups, bounded against a flood of strangers. */
const PER_CHAT = 500;
const CHATS = 2_000;

/**
 * The names of people who wrote or pressed a button in each chat since the bridge started,
 * strangers included: so an admin can `/allow ada` someone just refused. Not every chat
 * app can look a name up, so a name is only known once its person has written where the bridge reads.
 */
export class PeopleSeen {
  /** Whole chat → person → name, the most recent last (a Map keeps insertion order). */
  private readonly chats = new Map<string, Map<string, string>>();

  saw(chat: ChatRef, user: ChatUser): void {
    if (!user.name) return;
    const key = wholeChatKey(chat);
    let people = this.chats.get(key);
    if (people) this.chats.delete(key);
    else people = new Map();
    this.chats.set(key, people);
    const person = userKey(chat.transport, user);
    people.delete(person);
    people.set(person, user.name);
    if (people.size > PER_CHAT) people.delete(people.keys().next().value!);
    if (this.chats.size > CHATS) this.chats.delete(this.chats.keys().next().value!);
  }

  /** The name this person was last seen under, anywhere. */
  nameOf(person: string): string | undefined {
    for (const people of [...this.chats.values()].reverse()) {
      const name = people.get(person);
      if (name) return name;
    }
    return undefined;
  }

  /**
   * Who goes by this name (`ada`, `@ada`, `Ada Lovelace`; letter case aside): those seen in this
   * chat if any are, else those seen anywhere on its transport. Several: the name is ambiguous.
   */
  named(chat: ChatRef, written: string): SeenPerson[] {
    const wanted = comparable(written);
    if (!wanted) return [];
    const matches = (people: Map<string, string>): SeenPerson[] =>
      [...people].filter(([, name]) => comparable(name) === wanted).map(([person, name]) => ({ person, name }));
    const here = this.chats.get(wholeChatKey(chat));
    const local = here ? matches(here) : [];
    if (local.length) return local;
    const found = new Map<string, SeenPerson>();
    for (const [key, people] of this.chats) {
      if (!key.startsWith(`${chat.transport}:`)) continue;
      for (const match of matches(people)) found.set(match.person, match);
    }
    return [...found.values()];
  }
}

function comparable(name: string): string {
  return name.trim().replace(/^@/, '').replace(/\s+/g, ' ').toLowerCase();
}

/** A person as the bridge writes them: `Ada (<transport>:<id>)`, or the id alone. */
export function personLabel(person: string, name?: string): string {
  return name ? `${name} (${person})` : person;
}
