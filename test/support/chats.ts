import { chatRef, type ChatRef, type ChatUser } from '../../src/kernel/ports/chat.ts';
import { TELEGRAM } from '../../src/transports/telegram/id.ts';

/** A chat as in-process tests name it: the transport whose ids are numbers (BRIDGE_ALLOWED_USERS=1 means user 1 there). */
export function chat(id: number, thread?: number): ChatRef {
  return chatRef(TELEGRAM, id, thread);
}

/** A user of that transport. */
export function user(id: number, name?: string): ChatUser {
  return name === undefined ? { id: String(id) } : { id: String(id), name };
}
