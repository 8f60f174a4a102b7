import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { Redis } from 'ioredis';
import { rawPublicKey, unbox } from './sealing.ts';
import { BRIDGE_KEY, grantContext } from './bridge-keys.ts';
import { SealedChannel, type QueueSigner } from './signing.ts';

/**
 * A worker's own key pair, made at its start and never written anywhere: its public half goes
 * in its signed state (the registry) and in its claims, and the bridge seals for it what it
 * places here (grants). The bridge's public key is learned from Redis, signed with the queue
 * secret, and held to: a grant sealed with any other key (a forger's) does not open here.
 * The channels of the placements here are each opened from their grant, and held while the
 * placement is.
 */
export class WorkerKeys {
  private readonly privateKey = generateKeyPairSync('x25519').privateKey;
  readonly publicKey = rawPublicKey(createPublicKey(this.privateKey));
  private bridge: string | undefined;
  private readonly channels = new Map<string, SealedChannel>();

  constructor(private readonly admission: QueueSigner) {}

  /** The placement's channel: the one held, or opened from `grant`; else why not. */
  async channel(redis: Redis, sessionKey: string, attempt: number, grant: string | undefined): Promise<SealedChannel | { refused: string }> {
    const held = this.held(sessionKey, attempt);
    if (held) return held;
    if (!grant) return { refused: `no grant of placement ${attempt} of session ${sessionKey} came to this worker` };
    const opened = await this.open<{ key: string }>(redis, sessionKey, attempt, grant);
    if ('refused' in opened) return opened;
    const channel = new SealedChannel(Buffer.from(opened.body.key, 'base64'));
    this.channels.set(`${sessionKey}\n${attempt}`, channel);
    return channel;
  }

  held(sessionKey: string, attempt: number): SealedChannel | undefined {
    return this.channels.get(`${sessionKey}\n${attempt}`);
  }

  /** The placement left this worker: its key goes with it, and an ask for it from now on is refused. */
  forget(sessionKey: string, attempt: number): void {
    this.channels.delete(`${sessionKey}\n${attempt}`);
  }

  /** The grant's body, when the bridge sealed it for this worker and this placement; else why not. */
  async open<T>(redis: Redis, session: string, placement: number, sealed: string): Promise<{ body: T } | { refused: string }> {
    const bridge = await this.bridgeKey(redis);
    if ('refused' in bridge) return bridge;
    const plain = unbox(this.privateKey, bridge.key, grantContext(session, placement), sealed);
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
