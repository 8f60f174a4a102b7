import { chatKey, NO_CHAT } from '../../ports/transport.ts';

/** What decides who may act on a chat's runs from the web pages. */
export interface ChatAccess {
  /** The owner: the first of BRIDGE_ALLOWED_USERS. */
  isOwner(identity: string): boolean;
  /** In BRIDGE_ALLOWED_USERS now. */
  allowed(identity: string): boolean;
}

/**
 * Whether this person may act on a run or plan of this chat (stop it) from the dashboard: the
 * one place that rule lives, so a per-chat membership rule narrows every action at once. As
 * in the chat apps, where any allowed person in a chat may /subagents stop its runs: today any
 * allowed person, and the owner always. Runs started through the API for no chat have no
 * members: only the owner.
 */
export function mayActOnChat(access: ChatAccess, identity: string, key: string): boolean {
  if (access.isOwner(identity)) return true;
  if (key === chatKey(NO_CHAT)) return false;
  return access.allowed(identity);
}
