import { ErrorCode, WebClient, type WebAPIPlatformError, type WebAPIRateLimitedError } from '@slack/web-api';
import { LogLevel } from '@slack/web-api';

/**
 * A Web API client for the bridge's own calls: network errors and 5xx are retried with backoff,
 * but a 429 comes back at once with its Retry-After, so the channel's send budget pauses that
 * channel alone (the client's own wait would hold every later call of it).
 */
export function slackClient(token: string, apiUrl: string, options: { retries?: number; timeoutMs?: number } = {}): WebClient {
  return new WebClient(token, {
    slackApiUrl: apiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: options.retries ?? 5, factor: 2, minTimeout: 500, maxTimeout: 30_000 },
    timeout: options.timeoutMs ?? 30_000,
    logLevel: LogLevel.ERROR,
  });
}

/** Slack's `error` when the Web API refused a call (`invalid_auth`, `msg_too_long`, …). */
export function platformError(error: unknown): string | undefined {
  const e = error as Partial<WebAPIPlatformError>;
  return e?.code === ErrorCode.PlatformError ? e.data?.error : undefined;
}

/** Seconds Slack asked to wait, when `error` is its 429. */
export function retryAfter(error: unknown): number | undefined {
  const e = error as Partial<WebAPIRateLimitedError>;
  return e?.code === ErrorCode.RateLimitedError ? (e.retryAfter ?? 1) : undefined;
}

/** The token itself was refused: nothing will work until it is changed. */
export function isTokenRefusal(error: unknown): boolean {
  return ['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'not_allowed_token_type'].includes(platformError(error) ?? '');
}
