import { createPrivateKey, createPublicKey, generateKeyPairSync, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { textIfThere, writePrivateFile } from '../../kernel/store/private-files.ts';
import { box, QueueSealer, rawPublicKey } from './sealing.ts';
import { QueueSigner, SealedChannel } from './signing.ts';
import { PREFIX } from './redis.ts';

/** Where the bridge says its public key, signed with the queue secret: workers learn it there. */
export const BRIDGE_KEY = `${PREFIX}:bridge`;

interface Stored {
  v: 1;
  /** The bridge's own secret: placements' keys and bearers, its leases and read marks, what it keeps sealed. */
  secret: string;
  /** Its X25519 private key (PKCS#8 DER, base64): what it seals for each worker comes from it. */
  x25519: string;
}

/**
 * The bridge's own keys, kept in its data directory (`queue-keys.json`, 0600) and never in Redis
 * nor on a worker. Each placement's key and MCP bearer are derived from its secret, by what the
 * session it places (its key) and the placement's number: random to anyone else, unique to the placement, and the
 * same again after a restart (the bridge follows the placements it made). What a worker is
 * given is sealed for that worker's own public key (a grant); what the bridge keeps for itself
 * (a session's state) is sealed with a key only it has.
 */
export class BridgeKeys {
  /** Signs what only the bridge writes and reads back: sessions' leases, how far it read the streams. */
  readonly own: QueueSigner;
  readonly publicKey: string;

  private constructor(
    private readonly secret: Buffer,
    private readonly privateKey: KeyObject,
  ) {
    this.own = new QueueSigner(this.derive('own'));
    this.publicKey = rawPublicKey(createPublicKey(privateKey));
  }

  /** The bridge's keys from its data directory, made the first time. */
  static async load(dataDir: string): Promise<BridgeKeys> {
    const file = join(dataDir, 'queue-keys.json');
    let raw = await textIfThere(file);
    if (!raw) {
      const { privateKey } = generateKeyPairSync('x25519');
      const made: Stored = { v: 1, secret: randomBytes(32).toString('base64'), x25519: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64') };
      await writePrivateFile(file, (raw = JSON.stringify(made)));
    }
    const stored = JSON.parse(raw) as Stored;
    return new BridgeKeys(Buffer.from(stored.secret, 'base64'), createPrivateKey({ key: Buffer.from(stored.x25519, 'base64'), format: 'der', type: 'pkcs8' }));
  }

  /** Says the bridge's public key in Redis, signed with the queue secret (a worker pins the first it sees). */
  async publish(redis: Redis, admission: QueueSigner): Promise<void> {
    const signed = admission.sign({ kind: 'bridge', id: 'bridge', attempt: 0 }, { publicKey: this.publicKey }, 10 * 365 * 24 * 3600);
    await redis.set(BRIDGE_KEY, JSON.stringify(signed));
  }

  /** The channel of one placement: the bridge's and its worker's alone. */
  channel(session: string, placement: number): SealedChannel {
    return new SealedChannel(this.channelKey(session, placement));
  }

  /** The key of that channel, for the grant that gives it to the placement's worker. */
  channelKey(session: string, placement: number): Buffer {
    return this.derive(`channel\nsession\n${session}\n${placement}`);
  }

  /** The placement's secret on the bridge's MCP endpoint: granted while the placement lasts, revoked when it ends. */
  bearer(session: string, placement: number): string {
    return this.derive(`bearer\nsession\n${session}\n${placement}`).toString('base64url');
  }

  /** What a worker is given for a placement (its key, its bearer, its work), sealed for that worker's public key and that placement alone. */
  grant(toPublicKey: string, context: string, body: unknown): string {
    return box(this.privateKey, toPublicKey, context, Buffer.from(JSON.stringify(body), 'utf8'));
  }

  /** Seals what the bridge keeps for itself, in Redis or on its disk. */
  sealer(purpose: string): QueueSealer {
    return new QueueSealer(this.derive(`at-rest\n${purpose}`), purpose);
  }

  private derive(info: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.secret, Buffer.from('jsonl-bridge'), Buffer.from(info), 32));
  }
}

/** The context a grant is sealed for: one placement of one session (a chat's or a run's, by its key). */
export function grantContext(session: string, placement: number): string {
  return `grant\nsession\n${session}\n${placement}`;
}
