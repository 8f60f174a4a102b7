import { MattermostFault } from './model.ts';

/**
 * Mattermost's API rate limit (RateLimitSettings): per token, `perSec` calls a second with
 * bursts of `burst`, as a token bucket. Every answer carries X-Ratelimit-Limit, -Remaining and
 * -Reset (seconds until a call is allowed again); one over it is a 429 "limit exceeded".
 */
export class RateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private forced = 0;

  constructor(
    readonly perSec = 10,
    readonly burst = 100,
  ) {}

  /** The next `count` calls are refused, as a bucket another client emptied would. */
  refuseNext(count: number): void {
    this.forced = count;
  }

  /** The headers to answer with; throws the 429 when the call is over the limit. */
  take(key: string, now = Date.now()): Record<string, string> {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSec);
    bucket.at = now;
    this.buckets.set(key, bucket);
    const headers = {
      'X-Ratelimit-Limit': String(this.perSec),
      'X-Ratelimit-Remaining': String(Math.max(0, Math.floor(bucket.tokens) - 1)),
      'X-Ratelimit-Reset': '0',
    };
    if (this.forced > 0 || bucket.tokens < 1) {
      if (this.forced > 0) this.forced--;
      const reset = String(Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSec)));
      throw new MattermostFault(429, '', 'limit exceeded', { ...headers, 'X-Ratelimit-Remaining': '0', 'X-Ratelimit-Reset': reset, 'Retry-After': reset });
    }
    bucket.tokens -= 1;
    return headers;
  }
}
