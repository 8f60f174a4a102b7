import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';

/** The issuer of the Bot Framework's tokens to bots. */
export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';

/**
 * The Bot Framework's signing key, as the twin holds it: activities' JWTs are signed with its
 * private half (RS256), and its public half is published as a JWKS, endorsed for msteams, as
 * login.botframework.com publishes its keys.
 */
export class SigningKey {
  readonly kid = randomUUID();
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;

  constructor() {
    ({ privateKey: this.privateKey, publicKey: this.publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 }));
  }

  jwks(): { keys: Record<string, unknown>[] } {
    const { n, e } = this.publicKey.export({ format: 'jwk' });
    return { keys: [{ kty: 'RSA', use: 'sig', kid: this.kid, n, e, endorsements: ['msteams'] }] };
  }

  /** A JWT of these claims, signed now, valid an hour. */
  token(claims: Record<string, unknown>, key: KeyObject = this.privateKey): string {
    const now = Math.floor(Date.now() / 1000);
    const header = encode({ alg: 'RS256', typ: 'JWT', kid: this.kid });
    const payload = encode({ iss: BOT_FRAMEWORK_ISSUER, nbf: now - 60, iat: now - 60, exp: now + 3600, ...claims });
    return `${header}.${payload}.${sign('sha256', Buffer.from(`${header}.${payload}`), key).toString('base64url')}`;
  }

  /** A token signed by another key under this one's id: what a forger could make. */
  forged(claims: Record<string, unknown>): string {
    return this.token(claims, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
  }
}

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
