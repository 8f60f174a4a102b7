import { own, putOwn } from './own.ts';

/**
 * The next `#n` of a chat, for records people refer to by number (`/subagents stop 3`).
 * Numbers are never reused: the counters outlive the records, archived or dropped.
 */
export function nextChatNumber(counters: Record<string, number>, chatKey: string): number {
  const next = (own(counters, chatKey) ?? 0) + 1;
  putOwn(counters, chatKey, next);
  return next;
}
