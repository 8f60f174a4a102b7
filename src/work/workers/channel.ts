import { Signer, type Signed } from './signing.ts';
import { gcmOpen, gcmSeal } from './sealing.ts';

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
