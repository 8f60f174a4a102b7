import { createCipheriv, createDecipheriv, createPublicKey, diffieHellman, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `plain` encrypted with AES-256-GCM under `key`, `aad` authenticated beside it. */
export function gcmSeal(key: Buffer, iv: Buffer, aad: Buffer, plain: Buffer): { sealed: Buffer; tag: Buffer } {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { sealed, tag: cipher.getAuthTag() };
}

/** What gcmSeal sealed, or undefined when it was not sealed so (another key, IV or `aad`, or altered; a short tag too). */
export function gcmOpen(key: Buffer, iv: Buffer, aad: Buffer, sealed: Buffer, tag: Buffer): Buffer | undefined {
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]);
  } catch {
    return undefined;
  }
}

/**
 * Encrypts what must not be readable in Redis or on disk by whoever can read them (a
 * session's state: its transcripts hold whatever the agent read), with
 * AES-256-GCM under a key derived (HKDF-SHA256) from `secret` for `purpose`: the bridge's own
 * (see BridgeKeys), or a key two sides agreed (see box). `context` is authenticated too: a
 * blob sealed for one session does not open as another's.
 */
export class QueueSealer {
  private readonly key: Buffer;

  constructor(secret: string | Buffer, purpose: string) {
    this.key = Buffer.from(
      hkdfSync('sha256', typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret, Buffer.from('jsonl-bridge'), Buffer.from(purpose), 32),
    );
  }

  seal(plain: Buffer, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const { sealed, tag } = gcmSeal(this.key, iv, Buffer.from(context, 'utf8'), plain);
    return Buffer.concat([iv, tag, sealed]).toString('base64');
  }

  /** The plain bytes, or undefined when `sealed` was not sealed with this key for `context` (or was altered). */
  open(sealed: string, context: string): Buffer | undefined {
    const raw = Buffer.from(sealed, 'base64');
    const [iv, tag] = [raw.subarray(0, IV_BYTES), raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES)];
    return gcmOpen(this.key, iv, Buffer.from(context, 'utf8'), raw.subarray(IV_BYTES + TAG_BYTES), tag);
  }
}

export function rawPublicKey(key: KeyObject): string {
  return String(key.export({ format: 'jwk' }).x);
}

/**
 * The sealer two sides share without ever sending its key (X25519 between one's private key and
 * the other's public key as said in Redis, through HKDF): what one seals with it, only the other
 * opens, and it came from one of the two. Undefined when `other` is not a public key.
 */
function between(own: KeyObject, other: string): QueueSealer | undefined {
  if (typeof other !== 'string' || !/^[\w-]{43}$/.test(other)) return undefined;
  try {
    const theirs = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: other }, format: 'jwk' });
    return new QueueSealer(diffieHellman({ privateKey: own, publicKey: theirs }), 'box');
  } catch {
    return undefined;
  }
}

/** `plain` sealed by the holder of `own` for the holder of the private half of `to`, for `context` alone. */
export function box(own: KeyObject, to: string, context: string, plain: Buffer): string {
  const sealer = between(own, to);
  if (!sealer) throw new Error('not a public key');
  return sealer.seal(plain, context);
}

/** What the holder of `from`'s private half sealed for `own`'s holder and `context`; undefined when it was not. */
export function unbox(own: KeyObject, from: string, context: string, sealed: string): Buffer | undefined {
  return typeof sealed === 'string' ? between(own, from)?.open(sealed, context) : undefined;
}
