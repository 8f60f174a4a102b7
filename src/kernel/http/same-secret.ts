import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a secret or signature a caller presented is the expected one, in time that tells nothing of where
 * they differ, nor of the secret's length: both are hashed, and the equal-length digests compared.
 */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
