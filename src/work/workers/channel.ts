import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { asSigned, boundBody, NOT_SIGNED_SO, type Binding, type Signed, type Signer, type Verified } from './signing.ts';

const NONCE_BYTES = 12;

/**
 * A placement's channel: what the bridge and the one worker a session (a chat's or a run's) is
 * placed on say to each other through Redis, encrypted and authenticated with AES-256-GCM under
 * the placement's own key (random to everyone but the bridge, which derives it from a secret of
 * its own, and given to that worker alone, sealed for its key). Whoever reads Redis reads none of
 * it; another worker, holding the queue secret, can neither read nor forge it. The kind, id,
 * attempt, expiry and nonce are authenticated beside the body, as QueueSigner binds them.
 */
export class SealedChannel implements Signer {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {
    if (key.length !== 32) throw new Error('a placement key is 32 bytes');
  }

  sign(binding: Binding, body: unknown, ttlSeconds: number): Signed {
    const iv = randomBytes(NONCE_BYTES);
    const head = { v: 2 as const, ...binding, exp: this.now() + ttlSeconds * 1000, nonce: iv.toString('base64url') };
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(head));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(body), 'utf8'), cipher.final()]);
    return { ...head, body: sealed.toString('base64'), sig: cipher.getAuthTag().toString('base64url') };
  }

  verify<T>(data: unknown, expected: Binding): Verified<T> {
    const signed = asSigned(data);
    if (!signed) return { ok: false, why: 'it is not signed' };
    const iv = Buffer.from(signed.nonce, 'base64url');
    const tag = Buffer.from(signed.sig, 'base64url');
    if (iv.length !== NONCE_BYTES || tag.length !== 16) return { ok: false, why: NOT_SIGNED_SO };
    let plain: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAAD(aad(signed));
      decipher.setAuthTag(tag);
      plain = Buffer.concat([decipher.update(Buffer.from(signed.body, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      return { ok: false, why: NOT_SIGNED_SO };
    }
    return boundBody<T>(signed, plain, expected, this.now());
  }
}

function aad(head: Omit<Signed, 'body' | 'sig'>): Buffer {
  return Buffer.from([head.v, head.kind, head.id, head.attempt, head.exp, head.nonce].join('\n'), 'utf8');
}
