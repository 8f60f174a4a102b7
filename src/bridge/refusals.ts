import { code, rich, type RichText } from '../rich/index.ts';

/** How often one stranger is told they are not allowed: more would only feed a flood. */
export const REFUSAL_WINDOW_MS = 10 * 60_000;

/**
 * Remembers whom the bot refused lately, so a stranger posting thirty messages in a group is
 * answered once, not thirty times against the group's flood limit.
 */
export class RefusalThrottle {
  private readonly last = new Map<string, number>();

  constructor(private readonly windowMs = REFUSAL_WINDOW_MS) {}

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

/** What a stranger is told: their id, for the owner to allow. */
export function refusal(userId: string): RichText {
  return rich`⛔ Sorry, you are not allowed to use this bot. Your user id is ${code(userId)}; the owner can add it to BRIDGE_ALLOWED_USERS.`;
}
