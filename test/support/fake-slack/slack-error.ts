/** A Web API refusal as Slack words it: HTTP 200 with `{ ok: false, error }` (429 for a rate limit). */
export class SlackError extends Error {
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(error);
  }
}

/** A rate limit: HTTP 429, `Retry-After` seconds, `{ ok: false, error: 'ratelimited' }`. */
export class RateLimited extends SlackError {
  constructor(readonly retryAfterSeconds: number) {
    super('ratelimited');
  }
}
