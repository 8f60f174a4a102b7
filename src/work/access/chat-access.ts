import type { Log } from '../../kernel/log/logger.ts';
import type { ChatMembers } from '../../kernel/ports/chat-members.ts';
import { isNoChat, wholeChatKey, type ChatRef } from '../../kernel/ports/chat.ts';

export interface ChatAccessOptions {
  /** Each transport's answer about its own chats, by transport id. A chat of a transport not here is the owners' alone. */
  members: ReadonlyMap<string, ChatMembers>;
  /** Whether this person (`<transport>:111`) is an owner: they see and answer everything. */
  isOwner: (person: string) => boolean;
  /** Whether this person may use the bridge in this chat (BRIDGE_ALLOWED_USERS, and what its admins said with /allow and /deny). */
  mayUse: (chat: ChatRef, person: string) => boolean;
  log: Log;
}

/**
 * What a person may see and answer of the chats: those they belong to, as each chat's
 * transport says, and may use the bridge in (no admin denied them there), and everything for an owner. A chat whose people cannot be learnt now
 * (its service unreachable) is shown to nobody but the owners: closed, with a log line.
 * Runs of no chat (started through the API for none) are the owners'.
 */
export class ChatAccess {
  constructor(private readonly options: ChatAccessOptions) {}

  isOwner(person: string): boolean {
    return this.options.isOwner(person);
  }

  async sees(person: string, chat: ChatRef): Promise<boolean> {
    if (this.options.isOwner(person)) return true;
    if (isNoChat(chat)) return false;
    // Denied there, or allowed only elsewhere: being in the chat is not enough.
    if (!this.options.mayUse(chat, person)) return false;
    const members = this.options.members.get(chat.transport);
    if (!members) return false;
    try {
      return await members.isMember(chat, person);
    } catch (error) {
      this.options.log.warn(
        { chat: wholeChatKey(chat), user: person },
        `could not learn whether ${person} is in ${wholeChatKey(chat)} (${(error as Error).message}): not shown to them`,
      );
      return false;
    }
  }

  /** The items of chats this person may see, in their order: each chat is asked about once, all at once. */
  async filter<T>(person: string, items: readonly T[], chatOf: (item: T) => ChatRef | undefined): Promise<T[]> {
    if (this.options.isOwner(person)) return [...items];
    const verdicts = new Map<string, Promise<boolean>>();
    const sees = (chat: ChatRef | undefined): Promise<boolean> => {
      if (!chat) return Promise.resolve(false);
      const key = wholeChatKey(chat);
      let verdict = verdicts.get(key);
      if (!verdict) verdicts.set(key, (verdict = this.sees(person, chat)));
      return verdict;
    };
    const shown = await Promise.all(items.map((item) => sees(chatOf(item))));
    return items.filter((_, index) => shown[index]);
  }
}
