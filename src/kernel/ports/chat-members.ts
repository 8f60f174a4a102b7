import type { ChatRef } from './chat.ts';

/**
 * Who belongs to a chat, as its transport knows it: what the web pages show a person, and
 * who may answer a chat's questions. Each transport says it its own way (a chat app asks its
 * service; a chat of one person's is that person's).
 */
export interface ChatMembers {
  /**
   * Whether `person` (as allowlists hold them: `<transport>:222`) is in `chat` now, or was a
   * short while ago. Rejects when the transport cannot tell now (its service unreachable):
   * callers take that as "not a member".
   */
  isMember(chat: ChatRef, person: string): Promise<boolean>;
}

/** A transport whose every chat is one person's (the console, the web chat): `owns` says whose. */
export function onePersonChats(owns: (chat: ChatRef, person: string) => boolean): ChatMembers {
  return { isMember: async (chat, person) => owns(chat, person) };
}
