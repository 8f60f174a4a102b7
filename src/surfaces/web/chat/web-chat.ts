import { onePersonChats, type ChatMembers } from '../../../kernel/ports/chat-members.ts';
import { chatKey, chatRef, type ChatRef, type ChatUser } from '../../../kernel/ports/chat.ts';
import type { WebIdentity } from '../auth/web-logins.ts';

/** The web pages' transport id: what their chats' ChatRefs carry. */
export const WEB = 'web';

/** The identity of the person whose web chat `id` is (`<transport>.42` → `<transport>:42`): a transport's name holds no dot. */
export function webIdentityOf(id: string): string {
  return id.replace('.', ':');
}

/**
 * Each person's own chat on the web pages, with its own session: named by who they are
 * (`<transport>:42` → chat `<transport>.42`, since a chat id holds no colon).
 */
export function webChatOf(who: WebIdentity): { ref: ChatRef; key: string; user: ChatUser } {
  const ref = chatRef(WEB, who.identity.replace(/:/g, '.'));
  return { ref, key: chatKey(ref), user: { id: ref.chat, identity: who.identity, ...(who.name ? { name: who.name } : {}) } };
}

/** A web chat is its own person's alone. */
export const webMembers: ChatMembers = onePersonChats((chat, person) => webChatOf({ identity: person }).ref.chat === chat.chat);
