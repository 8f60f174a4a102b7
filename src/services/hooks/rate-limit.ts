/** A minute, the window of `perMinute`. */
const WINDOW_MS = 60_000;

/**
 * At most `perMinute` deliveries per hook in any sliding minute. Past it: how many seconds
 * until the oldest leaves the window (for Retry-After).
 */
export class RateLimit {
  private readonly taken = new Map<string, number[]>();

  take(key: string, perMinute: number, now = Date.now()): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const recent = (this.taken.get(key) ?? []).filter((at) => at > now - WINDOW_MS);
    this.taken.set(key, recent);
    if (recent.length >= perMinute) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now) / 1000)) };
    recent.push(now);
    return { ok: true };
  }
}
