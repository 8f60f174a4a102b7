import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts what must not be readable in Redis or on disk by whoever can read them (a
 * session's state: its transcripts hold whatever the agent read), with
 * AES-256-GCM under a key derived (HKDF-SHA256) from `secret` for `purpose`: the bridge's own
 * (see BridgeKeys), or a key two sides agreed (see boxes.ts). `context` is authenticated too: a
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
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** The plain bytes, or undefined when `sealed` was not sealed with this key for `context` (or was altered). */
  open(sealed: string, context: string): Buffer | undefined {
    const raw = Buffer.from(sealed, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      return undefined;
    }
  }
}
