import { chatRef, type ChatRef } from '../../kernel/ports/chat.ts';
import { personIdOn } from '../serving/incoming.ts';

/** Matrix's transport id: what its chats' refs carry (`matrix:!room~example.org:$root`), and its people's (`matrix:@alice:example.org`). */
export const MATRIX = 'matrix';

/** A Matrix user id: `@localpart:server` (the server may carry a port). */
const USER_ID = /^@[^\s:]+:[^\s]+$/;

/**
 * A room as the bridge's ChatRef; a thread (its root event's id) is a chat of its own. Room ids
 * hold a colon (`!abc:example.org`), which a chat's key uses between its parts: `~` stands for it.
 */
export function matrixChat(roomId: string, threadRoot?: string): ChatRef {
  return chatRef(MATRIX, ownId(roomId), threadRoot ? ownId(threadRoot) : undefined);
}

export function roomOf(ref: ChatRef): string {
  return ref.chat.replaceAll('~', ':');
}

/** The thread's root event, for `m.relates_to`. */
export function threadOf(ref: ChatRef): string | undefined {
  return ref.thread?.replaceAll('~', ':');
}

/** `matrix:@alice:example.org` → `@alice:example.org`; a person of another transport has none. */
export function matrixUserId(person: string): string | undefined {
  return personIdOn(MATRIX, person, USER_ID);
}

function ownId(id: string): string {
  return id.replaceAll(':', '~');
}
