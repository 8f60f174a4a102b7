import { describe, expect, it } from 'vitest';
import { QueueSigner, type Signed } from '../../src/work/workers/signing.ts';

// What goes through Redis is signed for one session, attempt and kind, until it expires.
const SECRET = 'a-queue-secret-of-at-least-32-characters';
const binding = { kind: 'session', id: 's-1', attempt: 1 } as const;

describe('QueueSigner', () => {
  it('verifies what it signed, as the JSON Redis holds too, and gives its body', () => {
    const signer = new QueueSigner(SECRET);
    const signed = signer.sign(binding, { id: 'm1', text: 'hello' }, 60);
    expect(signer.verify(signed, binding)).toMatchObject({ ok: true, body: { id: 'm1', text: 'hello' } });
    expect(signer.verify(JSON.stringify(signed), binding)).toMatchObject({ ok: true, body: { id: 'm1', text: 'hello' } });
  });

  it('refuses what is not signed at all', () => {
    const signer = new QueueSigner(SECRET);
    for (const data of [undefined, null, 'text', '{"id":"m1","text":"hello"}', { id: 'm1', text: 'hello' }, 42])
      expect(signer.verify(data, binding)).toEqual({ ok: false, why: 'it is not signed' });
  });

  it('refuses a body, expiry or nonce altered, and what another secret signed', () => {
    const signer = new QueueSigner(SECRET);
    const signed = signer.sign(binding, { id: 'm1', text: 'hello' }, 60);
    const altered: Signed[] = [
      { ...signed, body: JSON.stringify({ id: 'm1', text: 'rm -rf /' }) },
      { ...signed, exp: signed.exp + 3_600_000 },
      { ...signed, nonce: 'another' },
      { ...signed, sig: signed.sig.slice(0, -2) },
      new QueueSigner(`${SECRET}-other`).sign(binding, { id: 'm1', text: 'hello' }, 60),
    ];
    for (const data of altered) expect(signer.verify(data, binding)).toEqual({ ok: false, why: expect.stringMatching(/^its signature does not match/) });
  });

  it('refuses a message signed for another session, attempt or kind, rewritten or not', () => {
    const signer = new QueueSigner(SECRET);
    const signed = signer.sign(binding, 'stop it', 60);
    expect(signer.verify(signed, { ...binding, id: 's-2' })).toEqual({ ok: false, why: 'it is signed for s-1, not s-2' });
    expect(signer.verify(signed, { ...binding, attempt: 2 })).toEqual({ ok: false, why: 'it is signed for attempt 1, not 2' });
    expect(signer.verify(signed, { ...binding, kind: 'event' })).toEqual({ ok: false, why: 'it is signed as session, not event' });
    // Relabelled to pass the binding: the signature gives it away.
    expect(signer.verify({ ...signed, id: 's-2' }, { ...binding, id: 's-2' })).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^its signature/),
    });
    expect(signer.verify({ ...signed, attempt: 2 }, { ...binding, attempt: 2 })).toMatchObject({ ok: false, why: expect.stringMatching(/^its signature/) });
    expect(signer.verify({ ...signed, kind: 'event' }, { ...binding, kind: 'event' })).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^its signature/),
    });
  });

  it('refuses what has expired', () => {
    let now = 1_000_000;
    const signer = new QueueSigner(SECRET, () => now);
    const signed = signer.sign(binding, 'x', 10);
    now += 9_999;
    expect(signer.verify(signed, binding).ok).toBe(true);
    now += 1;
    expect(signer.verify(signed, binding)).toEqual({ ok: false, why: `it expired at ${new Date(1_010_000).toISOString()}` });
  });

  it('gives each message a nonce of its own, so a reader can tell one taken twice (a replay)', () => {
    const signer = new QueueSigner(SECRET);
    const one = signer.verify(signer.sign(binding, 'same', 60), binding);
    const two = signer.verify(signer.sign(binding, 'same', 60), binding);
    expect(one.ok && two.ok && one.nonce !== two.nonce).toBe(true);
  });

  it('takes no secret shorter than 32 characters', () => {
    expect(() => new QueueSigner('short')).toThrow(/shorter than 32 characters/);
  });
});
