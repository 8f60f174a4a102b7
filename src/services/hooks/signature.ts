import { createHmac } from 'node:crypto';
import type { Hook } from './hooks-file.ts';
import { sameSecret } from '../../kernel/http/same-secret.ts';

/**
 * Whether a delivery is signed with the hook's secret: for `github`, the HMAC-SHA256 of the
 * raw body (as GitHub computes it, sent as `X-Hub-Signature-256: sha256=<hex>`); for `bearer`,
 * the secret itself (`Authorization`). Compared in constant time.
 */
export function signedBy(hook: Pick<Hook, 'signature' | 'secret'>, body: Uint8Array, headers: { hubSignature?: string; authorization?: string }): boolean {
  if (hook.signature === 'github') {
    const match = /^sha256=([0-9a-fA-F]{64})$/.exec(headers.hubSignature?.trim() ?? '');
    if (!match) return false;
    return sameSecret(match[1]!.toLowerCase(), createHmac('sha256', hook.secret).update(body).digest('hex'));
  }
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.authorization ?? '');
  if (!match) return false;
  return sameSecret(match[1]!, hook.secret);
}
