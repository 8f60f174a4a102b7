import { createHmac } from 'node:crypto';

/**
 * A Mini App's `initData` signed as Telegram signs it: the `hash` is HMAC-SHA256 of the other
 * fields (sorted `key=value` lines) keyed with HMAC-SHA256("WebAppData", bot token).
 */
export function signInitData(fields: Record<string, string>, botToken: string): string {
  const checkString = Object.entries(fields)
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  return new URLSearchParams({ ...fields, hash: createHmac('sha256', secret).update(checkString).digest('hex') }).toString();
}
