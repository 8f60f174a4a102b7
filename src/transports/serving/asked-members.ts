import { inFlightLimit } from '../../kernel/concurrency/in-flight-limit.ts';
import type { ChatRef } from '../../kernel/ports/chat.ts';
import type { ChatMembers } from '../../kernel/ports/chat-members.ts';

type Limited = <T>(call: () => Promise<T>) => Promise<T>;

/**
 * Who is in an app's chats, asked of the app `atOnce` look-ups at a time (a page of many chats
 * asks side by side, within the app's rate limit): a person of another transport (no `userOf`)
 * is in none; an error `isNo` reads as a definite no, any other is "cannot tell now".
 */
export function askedMembers<U>(
  userOf: (person: string) => U | undefined,
  ask: (chat: ChatRef, user: U, limited: Limited) => Promise<boolean>,
  isNo: (error: unknown) => boolean,
  atOnce = 5,
): ChatMembers {
  const limited = inFlightLimit(atOnce);
  return {
    async isMember(chat, person) {
      const user = userOf(person);
      if (user === undefined) return false;
      try {
        return await ask(chat, user, limited);
      } catch (error) {
        if (isNo(error)) return false;
        throw error;
      }
    },
  };
}
