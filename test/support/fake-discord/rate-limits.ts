import { DiscordError } from './discord-error.ts';

/** A route's bucket, as Discord shares its limits: the route with its top-level resource (the channel). */
export interface RateLimitVerdict {
  headers: Record<string, string>;
  /** Set when the call is over the limit: the 429 to answer, not counted. */
  refused?: DiscordError;
}

/**
 * Discord's per-route limits, when a test turns them on: a channel's messages (create, edit,
 * delete) share one bucket of 5 per 5 s. Every answer carries the `X-RateLimit-*` headers;
 * a call over the limit gets a 429 with `retry_after`, the way Discord's clients learn to wait.
 */
export class RateLimits {
  private readonly windows = new Map<string, { resetAt: number; used: number }>();
  /** Calls to refuse next whatever the count, as a bucket shared with another client would (`refuseNext`). */
  private forced: { count: number; retryAfterMs: number } | undefined;

  constructor(
    readonly limit = 5,
    readonly windowMs = 5000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The next `count` counted calls get a 429 asking to wait `retryAfterMs`, though the headers said there was room. */
  refuseNext(count: number, retryAfterMs: number): void {
    this.forced = { count, retryAfterMs };
  }

  check(route: string, major: string): RateLimitVerdict {
    const key = `${route}:${major}`;
    const now = this.now();
    if (this.forced && this.forced.count > 0) {
      this.forced.count--;
      const after = this.forced.retryAfterMs / 1000;
      const headers = { 'retry-after': String(Math.ceil(after)), 'x-ratelimit-scope': 'shared' };
      return { headers, refused: new DiscordError(429, 0, 'You are being rate limited.', undefined, headers, { retry_after: after, global: false }) };
    }
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { resetAt: now + this.windowMs, used: 0 };
      this.windows.set(key, window);
    }
    const resetAfter = (window.resetAt - now) / 1000;
    const bucket = Buffer.from(route).toString('hex').slice(0, 32);
    const headers = {
      'x-ratelimit-limit': String(this.limit),
      'x-ratelimit-remaining': String(Math.max(0, this.limit - window.used - 1)),
      'x-ratelimit-reset': String(window.resetAt / 1000),
      'x-ratelimit-reset-after': resetAfter.toFixed(3),
      'x-ratelimit-bucket': bucket,
    };
    if (window.used >= this.limit) {
      const refusedHeaders = { ...headers, 'x-ratelimit-remaining': '0', 'x-ratelimit-scope': 'user', 'retry-after': String(Math.ceil(resetAfter)) };
      return {
        headers: refusedHeaders,
        refused: new DiscordError(429, 0, 'You are being rate limited.', undefined, refusedHeaders, {
          retry_after: Number(resetAfter.toFixed(3)),
          global: false,
        }),
      };
    }
    window.used++;
    return { headers };
  }
}
