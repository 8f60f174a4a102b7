// The model APIs' real answers when a key's quota, credit or rate limit runs out, for the mock
// to give: the bodies and headers as Anthropic and OpenAI send them, so the real CLIs print
// what they print in the field.
import type { ReplyError } from './types.ts';

const seconds = (at: Date): number => Math.max(1, Math.round((at.getTime() - Date.now()) / 1000));

/** Anthropic's 429 for an API key over its organisation's rate limit, with its reset headers. */
export function anthropicRateLimit(resetAt: Date): ReplyError {
  return {
    status: 429,
    type: 'rate_limit_error',
    message:
      'This request would exceed the rate limit for your organization (3f1b2c) of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.',
    headers: {
      'retry-after': String(seconds(resetAt)),
      'anthropic-ratelimit-requests-limit': '50',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': resetAt.toISOString(),
    },
  };
}

/** Anthropic's 429 for a Claude subscription's usage limit (the "unified" limit), which says when it resets. */
export function claudeUsageLimit(resetAt: Date): ReplyError {
  const reset = String(Math.round(resetAt.getTime() / 1000));
  return {
    status: 429,
    type: 'rate_limit_error',
    message: "This request would exceed your account's rate limit. Please try again later.",
    headers: {
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': reset,
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
      'anthropic-ratelimit-unified-5h-status': 'rejected',
      'anthropic-ratelimit-unified-5h-reset': reset,
      'anthropic-ratelimit-unified-5h-utilization': '1.0',
      'anthropic-ratelimit-unified-fallback': 'available',
    },
  };
}

/** Anthropic's answer to a key whose organisation has no credit left. */
export const anthropicNoCredit: ReplyError = {
  status: 400,
  type: 'invalid_request_error',
  message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
};

/** OpenAI's 429 for a key whose account has no quota (credit) left. */
export const openAiInsufficientQuota: ReplyError = {
  status: 429,
  type: 'insufficient_quota',
  code: 'insufficient_quota',
  message:
    'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
};

/** OpenAI's 429 for a key over its rate limit, which says when to try again. */
export function openAiRateLimit(resetAt: Date): ReplyError {
  const wait = seconds(resetAt);
  return {
    status: 429,
    type: 'requests',
    code: 'rate_limit_exceeded',
    message: `Rate limit reached for gpt-5.5 in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in ${wait}s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
    headers: { 'retry-after': String(wait), 'x-ratelimit-reset-requests': `${wait}s` },
  };
}

/** OpenAI's 429 for a ChatGPT plan's Codex usage limit, which says when it resets. */
export function codexUsageLimit(resetAt: Date): ReplyError {
  return {
    status: 429,
    type: 'usage_limit_reached',
    message: 'The usage limit has been reached',
    fields: { plan_type: 'plus', resets_at: Math.round(resetAt.getTime() / 1000), resets_in_seconds: seconds(resetAt) },
  };
}
