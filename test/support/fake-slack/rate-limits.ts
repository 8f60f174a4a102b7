import { RateLimited } from './slack-error.ts';

export interface RateLimitOptions {
  /** chat.postMessage per channel: one a second, after a burst of this many. Default 4. */
  readonly postBurst?: number;
  /** Calls a minute per method, across the workspace (Slack's tiers: 1 → 1, 2 → 20, 3 → 50, 4 → 100). */
  readonly perMinute?: Readonly<Record<string, number>>;
}

/** Slack's tiers for the methods the bridge calls; chat.postMessage is its own special tier (per channel). */
export const DEFAULT_TIERS: Readonly<Record<string, number>> = {
  'chat.update': 50,
  'chat.delete': 50,
  'chat.postEphemeral': 100,
  'reactions.add': 50,
  'conversations.info': 100,
  'conversations.members': 100,
  'users.info': 100,
  'files.getUploadURLExternal': 20,
  'files.completeUploadExternal': 20,
};

/**
 * The twin's rate limits: a token bucket per channel for chat.postMessage (one a second with a
 * short burst, as Slack allows), and a minute's window per method for the tiers. A call past
 * either is a RateLimited naming the seconds until it would pass.
 */
export class RateLimits {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly windows = new Map<string, number[]>();
  private readonly burst: number;
  private readonly perMinute: Readonly<Record<string, number>>;

  constructor(options: RateLimitOptions = {}) {
    this.burst = options.postBurst ?? 4;
    this.perMinute = options.perMinute ?? DEFAULT_TIERS;
  }

  check(method: string, channel: string | undefined, now = Date.now()): void {
    if (method === 'chat.postMessage' && channel) {
      const bucket = this.buckets.get(channel) ?? { tokens: this.burst, at: now };
      bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) / 1000);
      bucket.at = now;
      this.buckets.set(channel, bucket);
      if (bucket.tokens < 1) throw new RateLimited(Math.max(1, Math.ceil(1 - bucket.tokens)));
      bucket.tokens -= 1;
      return;
    }
    const limit = this.perMinute[method];
    if (limit === undefined) return;
    const window = (this.windows.get(method) ?? []).filter((t) => t > now - 60_000);
    this.windows.set(method, window);
    if (window.length >= limit) throw new RateLimited(Math.max(1, Math.ceil((window[0]! + 60_000 - now) / 1000)));
    window.push(now);
  }
}
