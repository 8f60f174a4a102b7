import type { Redis } from 'ioredis';
import { newKeyPair, unbox, type KeyPair } from './boxes.ts';
import { BRIDGE_KEY, grantContext } from './bridge-keys.ts';
import type { QueueSigner } from './signing.ts';

/**
 * A worker's own key pair, made at its start and never written anywhere: its public half goes
 * in its signed state (the registry) and in its claims, and the bridge seals for it what it
 * places here (grants). The bridge's public key is learned from Redis, signed with the queue
 * secret, and held to: a grant sealed with any other key (a forger's) does not open here.
 */
export class WorkerKeys {
  private readonly pair: KeyPair = newKeyPair();
  private bridge: string | undefined;

  constructor(private readonly admission: QueueSigner) {}

  get publicKey(): string {
    return this.pair.publicKey;
  }

  /** The grant's body, when the bridge sealed it for this worker and this placement; else why not. */
  async open<T>(redis: Redis, session: string, placement: number, sealed: string): Promise<{ body: T } | { refused: string }> {
    const bridge = await this.bridgeKey(redis);
    if ('refused' in bridge) return bridge;
    const plain = unbox(this.pair.privateKey, bridge.key, grantContext(session, placement), sealed);
    if (!plain)
      return { refused: 'its grant does not open with this worker’s key and the bridge’s (sealed for another worker or placement, or not by the bridge)' };
    return { body: JSON.parse(plain.toString('utf8')) as T };
  }

  /** The bridge's public key: the first one this worker saw, as long as Redis still says it. */
  private async bridgeKey(redis: Redis): Promise<{ key: string } | { refused: string }> {
    const raw = await redis.get(BRIDGE_KEY);
    const verified = this.admission.verify<{ publicKey?: unknown }>(raw, { kind: 'bridge', id: 'bridge', attempt: 0 });
    if (!verified.ok) return { refused: `the bridge's key in Redis was refused: ${raw === null ? 'there is none' : verified.why}` };
    const said = verified.body.publicKey;
    if (typeof said !== 'string') return { refused: "the bridge's key in Redis is not one" };
    this.bridge ??= said;
    if (said !== this.bridge)
      return { refused: "the bridge's key in Redis changed since this worker first saw it (restart the worker if the bridge's data directory was replaced)" };
    return { key: said };
  }
}
