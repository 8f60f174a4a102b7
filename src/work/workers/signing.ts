import { createHmac, randomBytes } from 'node:crypto';
import { sameSecret } from '../../kernel/http/same-secret.ts';
import { jsonOf } from '../../kernel/protocols/decoder.ts';
import { MIN_QUEUE_SECRET_CHARS } from './queue-settings.ts';
import { gcmOpen, gcmSeal } from './sealing.ts';

/** What a signature is bound to besides its body: a message signed for one session (or stream), placement or kind is no other's. */
export interface Binding {
  /**
   * What it is, by who writes it: the bridge (a session's asks, how far it read the reports, a
   * session's lease on a worker, its own public key) or a worker (a session's reports, what it can take).
   */
  kind: 'session' | 'event' | 'read' | 'lease' | 'worker' | 'bridge';
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

/**
 * What signs and checks messages for a binding: the queue secret's HMAC, or a placement's sealed
 * channel (SealedChannel, below). Both bind the kind, id, attempt, expiry and nonce to the body; each
 * protects the body its own way.
 */
export abstract class Signer {
  constructor(private readonly now: () => number) {}

  sign(binding: Binding, body: unknown, ttlSeconds: number): Signed {
    const head = { v: 2 as const, ...binding, exp: this.now() + ttlSeconds * 1000, nonce: randomBytes(12).toString('base64url') };
    return { ...head, ...this.protect(head, JSON.stringify(body)) };
  }

  /** The body, when `data` (a Signed, or its JSON) is signed with this key for exactly `expected` and has not expired. */
  verify<T>(data: unknown, expected: Binding): Verified<T> {
    const signed = asSigned(data);
    if (!signed) return { ok: false, why: 'it is not signed' };
    const body = this.unprotect(signed);
    if (body === undefined) return { ok: false, why: 'its signature does not match (altered, or signed with another secret)' };
    if (signed.kind !== expected.kind) return { ok: false, why: `it is signed as ${signed.kind}, not ${expected.kind}` };
    if (signed.id !== expected.id) return { ok: false, why: `it is signed for ${signed.id}, not ${expected.id}` };
    if (signed.attempt !== expected.attempt) return { ok: false, why: `it is signed for attempt ${signed.attempt}, not ${expected.attempt}` };
    if (signed.exp <= this.now()) return { ok: false, why: `it expired at ${new Date(signed.exp).toISOString()}` };
    return { ok: true, body: JSON.parse(body) as T, nonce: signed.nonce };
  }

  /** The body as it is written, and what proves it (`sig`). */
  protected abstract protect(head: Omit<Signed, 'body' | 'sig'>, json: string): { body: string; sig: string };
  /** The body's JSON, when `signed` proves it; else undefined. */
  protected abstract unprotect(signed: Signed): string | undefined;
}

/**
 * Signs and checks what the bridge and its workers exchange through Redis, with the secret
 * they share (BRIDGE_QUEUE_SECRET): HMAC-SHA256 over the kind, id, attempt, expiry, nonce
 * and body. Whoever can write to Redis without the secret can forge nothing, alter nothing,
 * move nothing from one session, attempt or kind to another, and nothing outlives its expiry.
 * Replays of a whole message are the reader's to refuse (by nonce or order), where they matter.
 */
export class QueueSigner extends Signer {
  private readonly key: Buffer;

  /** `secret`: the queue secret, or a key of the bridge's own (bytes). */
  constructor(secret: string | Buffer, now: () => number = Date.now) {
    super(now);
    if (typeof secret === 'string' && secret.length < MIN_QUEUE_SECRET_CHARS)
      throw new Error(`the queue secret is shorter than ${MIN_QUEUE_SECRET_CHARS} characters`);
    this.key = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  }

  protected protect(head: Omit<Signed, 'body' | 'sig'>, json: string): { body: string; sig: string } {
    return { body: json, sig: this.mac({ ...head, body: json }) };
  }

  protected unprotect(signed: Signed): string | undefined {
    return sameSecret(signed.sig, this.mac(signed)) ? signed.body : undefined;
  }

  private mac(s: Omit<Signed, 'sig'>): string {
    return createHmac('sha256', this.key).update([s.v, s.kind, s.id, s.attempt, s.exp, s.nonce, s.body].join('\n')).digest('base64url');
  }
}

/**
 * A placement's channel: what the bridge and the one worker a session (a chat's or a run's) is
 * placed on say to each other through Redis, encrypted and authenticated with AES-256-GCM under
 * the placement's own key (random to everyone but the bridge, which derives it from a secret of
 * its own, and given to that worker alone, sealed for its key). Whoever reads Redis reads none of
 * it; another worker, holding the queue secret, can neither read nor forge it. The kind, id,
 * attempt, expiry and nonce (the cipher's IV) are authenticated beside the body, as QueueSigner binds them.
 */
export class SealedChannel extends Signer {
  constructor(
    private readonly key: Buffer,
    now: () => number = Date.now,
  ) {
    super(now);
    if (key.length !== 32) throw new Error('a placement key is 32 bytes');
  }

  protected protect(head: Omit<Signed, 'body' | 'sig'>, json: string): { body: string; sig: string } {
    const { sealed, tag } = gcmSeal(this.key, Buffer.from(head.nonce, 'base64url'), aad(head), Buffer.from(json, 'utf8'));
    return { body: sealed.toString('base64'), sig: tag.toString('base64url') };
  }

  protected unprotect(signed: Signed): string | undefined {
    const iv = Buffer.from(signed.nonce, 'base64url');
    const opened = gcmOpen(this.key, iv, aad(signed), Buffer.from(signed.body, 'base64'), Buffer.from(signed.sig, 'base64url'));
    return opened?.toString('utf8');
  }
}

function aad(head: Omit<Signed, 'body' | 'sig'>): Buffer {
  return Buffer.from([head.v, head.kind, head.id, head.attempt, head.exp, head.nonce].join('\n'), 'utf8');
}

/** `data` (a Signed, or its JSON) as a Signed, when it has the shape of one. */
export function asSigned(given: unknown): Signed | undefined {
  const data = typeof given === 'string' ? jsonOf(given) : given;
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
