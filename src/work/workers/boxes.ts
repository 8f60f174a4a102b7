import { createPublicKey, diffieHellman, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { QueueSealer } from './sealing.ts';

/** An X25519 key pair: the private half stays in its process (or the bridge's data directory); the public half is said in Redis. */
export interface KeyPair {
  privateKey: KeyObject;
  /** Its public half, raw and base64url: how it is said in Redis. */
  publicKey: string;
}

export function newKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('x25519');
  return { privateKey, publicKey: rawPublicKey(publicKey) };
}

export function rawPublicKey(key: KeyObject): string {
  return String(key.export({ format: 'jwk' }).x);
}

/** A public key as said in Redis, or undefined when it is not one. */
function publicKeyOf(raw: string): KeyObject | undefined {
  if (typeof raw !== 'string' || !/^[\w-]{43}$/.test(raw)) return undefined;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: raw }, format: 'jwk' });
  } catch {
    return undefined;
  }
}

/**
 * The key two sides share without ever sending it (X25519 between one's private key and the
 * other's public key, through HKDF): what one seals with it, only the other opens, and it came
 * from one of the two.
 */
function between(own: KeyObject, other: string): QueueSealer | undefined {
  const theirs = publicKeyOf(other);
  return theirs && new QueueSealer(diffieHellman({ privateKey: own, publicKey: theirs }), 'box');
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
