import { createHmac } from 'node:crypto';
import type { Hook } from './hooks-file.ts';
import { sameSecret } from '../../kernel/http/same-secret.ts';

/** The headers a delivery's signature is read from. */
export interface SignatureHeaders {
  /** GitHub's `X-Hub-Signature-256: sha256=<hex>`. */
  hubSignature?: string | undefined;
  authorization?: string | undefined;
}

/**
 * Whether a delivery is signed with the hook's secret: for `github`, the HMAC-SHA256 of the
 * raw body (as GitHub computes it); for `bearer`, the secret itself. Compared in constant time.
 */
export function signedBy(hook: Pick<Hook, 'signature' | 'secret'>, body: Uint8Array, headers: SignatureHeaders): boolean {
  if (hook.signature === 'github') {
    const match = /^sha256=([0-9a-fA-F]{64})$/.exec(headers.hubSignature?.trim() ?? '');
    if (!match) return false;
    return sameSecret(match[1]!.toLowerCase(), createHmac('sha256', hook.secret).update(body).digest('hex'));
  }
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.authorization ?? '');
  if (!match) return false;
  return sameSecret(match[1]!, hook.secret);
}
