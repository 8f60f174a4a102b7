import { createHmac } from 'node:crypto';
import { sameSecret } from '../../kernel/http/same-secret.ts';
import type { InAppLogin } from '../../kernel/ports/transport.ts';

/** The bot's Mini App as the web pages' in-app login: its launch data checked with the bot token; Telegram's web client frames it. */
export function miniApp(botToken: string): InAppLogin {
  return { check: (initData) => checkInitData(initData, botToken), frameAncestors: ['https://web.telegram.org'] };
}

/** How old a Mini App's `initData` may be: Telegram signs it when the app opens. */
export const INIT_DATA_MAX_AGE_S = 3600;

export type InitDataCheck = { ok: true; user: { id: string; name?: string } } | { ok: false; reason: string };

/**
 * Checks a Telegram Mini App's `initData` as Telegram specifies: the `hash` is
 * HMAC-SHA256 of the other fields (sorted `key=value` lines) keyed with
 * HMAC-SHA256("WebAppData", bot token), and `auth_date` is within the hour.
 */
export function checkInitData(initData: string, botToken: string, now = Date.now()): InitDataCheck {
  const params = new URLSearchParams(initData);
  const hash = params.get('hash');
  if (!hash || !/^[0-9a-f]{64}$/.test(hash)) return { ok: false, reason: 'no signature' };
  params.delete('hash');
  const checkString = [...params]
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  if (!sameSecret(hash, createHmac('sha256', secret).update(checkString).digest('hex'))) return { ok: false, reason: 'bad signature' };
  const authDate = Number(params.get('auth_date'));
  if (!Number.isFinite(authDate) || now / 1000 - authDate > INIT_DATA_MAX_AGE_S) return { ok: false, reason: 'expired' };
  let user: { id?: unknown; first_name?: unknown; username?: unknown };
  try {
    user = JSON.parse(params.get('user') ?? '');
  } catch {
    return { ok: false, reason: 'no user' };
  }
  if (typeof user.id !== 'number' && typeof user.id !== 'string') return { ok: false, reason: 'no user' };
  const name = typeof user.first_name === 'string' ? user.first_name : typeof user.username === 'string' ? user.username : undefined;
  return { ok: true, user: { id: String(user.id), ...(name ? { name } : {}) } };
}
