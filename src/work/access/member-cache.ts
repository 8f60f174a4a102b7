import type { ChatMembers } from '../../kernel/ports/chat-members.ts';
import { wholeChatKey, type ChatRef } from '../../kernel/ports/chat.ts';

export interface MemberCacheOptions {
  /** How long "a member" holds before it is asked again. */
  memberMs: number;
  /** How long "not a member" holds: shorter, so someone just added sees the chat soon. */
  strangerMs: number;
  /** How long a failed look-up is not repeated (it fails again at once): a service that is down is not hammered. */
  failedMs: number;
  /** Answers kept at most; the oldest go first. */
  maxEntries: number;
}

type Entry = { until: number; answer: Promise<boolean> };

/**
 * A transport's answers about who is in which chat, kept a while per (chat, person): a
 * dashboard page of 200 runs in 50 chats asks the service once per chat a few minutes, and
 * look-ups already under way are shared, not repeated. Threads of a chat share its people.
 */
export class CachedMembers implements ChatMembers {
  private readonly entries = new Map<string, Entry>();
  private readonly options: MemberCacheOptions;

  constructor(
    private readonly source: ChatMembers,
    options: Partial<MemberCacheOptions> = {},
  ) {
    this.options = { memberMs: 5 * 60_000, strangerMs: 30_000, failedMs: 10_000, maxEntries: 10_000, ...options };
  }

  isMember(chat: ChatRef, person: string): Promise<boolean> {
    const key = `${wholeChatKey(chat)}\n${person}`;
    const now = Date.now();
    const held = this.entries.get(key);
    if (held && held.until > now) return held.answer;
    this.entries.delete(key);
    // Until it settles, the look-up itself is what later callers wait on.
    const answer = this.source.isMember(chat, person);
    const entry: Entry = { until: Number.POSITIVE_INFINITY, answer };
    this.entries.set(key, entry);
    this.bound();
    answer.then(
      (member) => (entry.until = Date.now() + (member ? this.options.memberMs : this.options.strangerMs)),
      () => (entry.until = Date.now() + this.options.failedMs),
    );
    return answer;
  }

  private bound(): void {
    // A Map iterates in insertion order: the first keys are the oldest.
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.options.maxEntries) return;
      this.entries.delete(key);
    }
  }
}
