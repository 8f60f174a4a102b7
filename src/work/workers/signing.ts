import { createHmac, randomBytes } from 'node:crypto';
import { sameSecret } from '../../kernel/http/same-secret.ts';
import { MIN_QUEUE_SECRET_CHARS } from './queue-settings.ts';

/**
 * What goes through Redis signed, by who writes it: the bridge (a session's asks, how far it
 * read the reports, a session's lease on a worker, its own public key) or a worker (a
 * session's reports, what it can take).
 */
export type SignedKind = 'session' | 'event' | 'read' | 'lease' | 'worker' | 'bridge';

/** What a signature is bound to besides its body: a message signed for one session (or stream), placement or kind is no other's. */
export interface Binding {
  kind: SignedKind;
  id: string;
  attempt: number;
}

/** A signed message as it sits in Redis. `body` is JSON, signed as written. */
export interface Signed extends Binding {
  v: 2;
  /** Milliseconds since the epoch after which it is refused. */
  exp: number;
  /** Makes each message unique, so a reader can tell one taken twice. */
  nonce: string;
  body: string;
  sig: string;
}

export type Verified<T> = { ok: true; body: T; nonce: string } | { ok: false; why: string };

/** What signs and checks messages for a binding: the queue secret's HMAC, or a placement's sealed channel (see channel.ts). */
export interface Signer {
  sign(binding: Binding, body: unknown, ttlSeconds: number): Signed;
  verify<T>(data: unknown, expected: Binding): Verified<T>;
}

/** The message's body, when it is for exactly `expected` and has not expired (its signature checked already). */
export function boundBody<T>(signed: Signed, body: string, expected: Binding, now: number): Verified<T> {
  if (signed.kind !== expected.kind) return { ok: false, why: `it is signed as ${signed.kind}, not ${expected.kind}` };
  if (signed.id !== expected.id) return { ok: false, why: `it is signed for ${signed.id}, not ${expected.id}` };
  if (signed.attempt !== expected.attempt) return { ok: false, why: `it is signed for attempt ${signed.attempt}, not ${expected.attempt}` };
  if (signed.exp <= now) return { ok: false, why: `it expired at ${new Date(signed.exp).toISOString()}` };
  return { ok: true, body: JSON.parse(body) as T, nonce: signed.nonce };
}

/** Said of a message whose signature (or seal) does not check out. */
export const NOT_SIGNED_SO = 'its signature does not match (altered, or signed with another secret)';

/**
 * Signs and checks what the bridge and its workers exchange through Redis, with the secret
 * they share (BRIDGE_QUEUE_SECRET): HMAC-SHA256 over the kind, id, attempt, expiry, nonce
 * and body. Whoever can write to Redis without the secret can forge nothing, alter nothing,
 * move nothing from one session, attempt or kind to another, and nothing outlives its expiry.
 * Replays of a whole message are the reader's to refuse (by nonce or order), where they matter.
 */
export class QueueSigner implements Signer {
  private readonly key: Buffer;

  /** `secret`: the queue secret, or a key of the bridge's own (bytes). */
  constructor(
    secret: string | Buffer,
    private readonly now: () => number = Date.now,
  ) {
    if (typeof secret === 'string' && secret.length < MIN_QUEUE_SECRET_CHARS)
      throw new Error(`the queue secret is shorter than ${MIN_QUEUE_SECRET_CHARS} characters`);
    this.key = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  }

  sign(binding: Binding, body: unknown, ttlSeconds: number): Signed {
    const unsigned = {
      v: 2 as const,
      ...binding,
      exp: this.now() + ttlSeconds * 1000,
      nonce: randomBytes(12).toString('base64url'),
      body: JSON.stringify(body),
    };
    return { ...unsigned, sig: this.mac(unsigned) };
  }

  /** The body, when `data` (a Signed, or its JSON) is signed with this secret for exactly `expected` and has not expired. */
  verify<T>(data: unknown, expected: Binding): Verified<T> {
    const signed = asSigned(data);
    if (!signed) return { ok: false, why: 'it is not signed' };
    if (!sameSecret(signed.sig, this.mac(signed))) return { ok: false, why: NOT_SIGNED_SO };
    return boundBody<T>(signed, signed.body, expected, this.now());
  }

  private mac(s: Omit<Signed, 'sig'>): string {
    return createHmac('sha256', this.key).update([s.v, s.kind, s.id, s.attempt, s.exp, s.nonce, s.body].join('\n')).digest('base64url');
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `data` (a Signed, or its JSON) as a Signed, when it has the shape of one. */
export function asSigned(given: unknown): Signed | undefined {
  const data = typeof given === 'string' ? parseJson(given) : given;
  if (!data || typeof data !== 'object') return undefined;
  const s = data as Record<string, unknown>;
  const ok =
    s.v === 2 &&
    typeof s.kind === 'string' &&
    typeof s.id === 'string' &&
    Number.isSafeInteger(s.attempt) &&
    Number.isSafeInteger(s.exp) &&
    typeof s.nonce === 'string' &&
    typeof s.body === 'string' &&
    typeof s.sig === 'string' &&
    !s.kind.includes('\n') &&
    !s.id.includes('\n') &&
    !s.nonce.includes('\n');
  return ok ? (s as unknown as Signed) : undefined;
}
