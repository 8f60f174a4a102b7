import { code, rich, type RichText } from '../../kernel/rich/index.ts';

/**
 * Remembers whom the bot refused lately, so a stranger posting thirty messages in a group is
 * answered once, not thirty times against the group's flood limit.
 */
export class RefusalThrottle {
  private readonly last = new Map<string, number>();

  /** `windowMs`: how often one stranger is told they are not allowed (more would only feed a flood). */
  constructor(private readonly windowMs = 10 * 60_000) {}

  /** True when this user has not been refused within the window (and counts this refusal). */
  shouldRefuse(userId: string, now = Date.now()): boolean {
    const previous = this.last.get(userId);
    if (previous !== undefined && now - previous < this.windowMs) return false;
    this.last.set(userId, now);
    // Forget strangers whose window has passed, so a crowd of them cannot grow the map for ever.
    if (this.last.size > 1000) for (const [id, at] of this.last) if (now - at >= this.windowMs) this.last.delete(id);
    return true;
  }
}

/** What a stranger is told: their id, for the owner to allow (or, in a group, one of its admins). */
export function refusal(userId: string, inGroup = false): RichText {
  const who = inGroup
    ? 'the owner can add it to BRIDGE_ALLOWED_USERS, or an admin can /allow you in this chat'
    : 'the owner can add it to BRIDGE_ALLOWED_USERS';
  return rich`⛔ Sorry, you are not allowed to use this bot. Your user id is ${code(userId)}; ${who}.`;
}

/** What someone an admin denied in this chat is told, whatever the lists say of them elsewhere. */
export function deniedHere(by: string): RichText {
  return rich`⛔ An admin (${by}) denied you in this chat with /deny; ask one of its admins to /allow you again.`;
}

/** What someone an admin let into another chat, but not this one, is told. */
export const ALLOWED_ELSEWHERE = rich`⛔ You may use this bot only in the chats whose admins allowed you with /allow, and this is not one of them.`;

/** What someone not named with /allow is told in a group where only the named start turns. */
export const NOT_NAMED_FOR_TURNS = rich`⛔ In this group only the people an admin named with /allow start the agent's work (BRIDGE_GROUP_TURNS=allowed); ask an admin to /allow you. Commands that only look still work.`;
