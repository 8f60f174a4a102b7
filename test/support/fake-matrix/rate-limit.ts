import { MatrixFault } from './model.ts';

/**
 * A homeserver's message rate limit (Synapse's rc_message): per user, `perSec` events a second
 * with bursts of `burst`, as a token bucket; one over it is a 429 M_LIMIT_EXCEEDED with the
 * `retry_after_ms` to wait. The twin's defaults are those of a bot the operator exempted in
 * part; a test empties the bucket with `refuseNext`.
 */
export class RateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private forced = 0;

  constructor(
    readonly perSec = 20,
    readonly burst = 60,
  ) {}

  /** The next `count` events are refused, as a bucket another client emptied would. */
  refuseNext(count: number): void {
    this.forced = count;
  }

  take(user: string, now = Date.now()): void {
    const bucket = this.buckets.get(user) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSec);
    bucket.at = now;
    this.buckets.set(user, bucket);
    if (this.forced > 0 || bucket.tokens < 1) {
      if (this.forced > 0) this.forced--;
      const wait = Math.max(200, Math.ceil(((1 - bucket.tokens) / this.perSec) * 1000));
      throw new MatrixFault(429, 'M_LIMIT_EXCEEDED', 'Too Many Requests', { retry_after_ms: wait });
    }
    bucket.tokens -= 1;
  }
}
