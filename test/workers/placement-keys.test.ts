import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_KEY, BridgeKeys, grantContext } from '../../src/work/workers/bridge-keys.ts';
import { QueueSigner } from '../../src/work/workers/signing.ts';
import { WorkerKeys } from '../../src/work/workers/worker-keys.ts';
import { tempDir } from '../support/bridge-process.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';

// The keys a worker holds are its own: what the bridge places on one worker is sealed for it,
// and the queue secret every worker shares opens none of it.
const SECRET = 'a-queue-secret-of-at-least-32-characters';
const admission = new QueueSigner(SECRET);
let redis: RedisServer;
let client: Redis;
let data: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
  data = await tempDir('bridge-keys-');
});
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
  await data?.remove();
});

describe("a placement's keys", () => {
  it("are the bridge's own: kept owner-only in its data directory, the same after a restart, and unique to each placement", async () => {
    const keys = await BridgeKeys.load(data.path);
    const again = await BridgeKeys.load(data.path);
    expect(statSync(join(data.path, 'queue-keys.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(data.path, 'queue-keys.json'), 'utf8')).not.toContain(SECRET);
    expect(again.publicKey).toBe(keys.publicKey);
    expect(again.bearer('r1', 1)).toBe(keys.bearer('r1', 1));
    const bearers = [keys.bearer('r1', 1), keys.bearer('r1', 2), keys.bearer('r2', 1)];
    expect(new Set(bearers).size).toBe(3);
    // Another bridge (another data directory) with the same queue secret derives none of them.
    const other = await tempDir('bridge-keys-other-');
    const foreign = await BridgeKeys.load(other.path);
    await other.remove();
    expect(bearers).not.toContain(foreign.bearer('r1', 1));
  });

  it("seal what they carry: a placement's channel reads as nothing, and opens only with its own key, binding and time", async () => {
    const keys = await BridgeKeys.load(data.path);
    const channel = keys.channel('r1', 1);
    const binding = { kind: 'event', id: 'r1', attempt: 1 } as const;
    const signed = channel.sign(binding, { text: 'the prompt, in confidence' }, 60);
    expect(JSON.stringify(signed)).not.toContain('confidence');
    expect(keys.channel('r1', 1).verify(JSON.stringify(signed), binding)).toMatchObject({ ok: true, body: { text: 'the prompt, in confidence' } });
    const refusals: [unknown, typeof binding | { kind: 'event'; id: string; attempt: number }, RegExp][] = [
      [signed, { ...binding, attempt: 2 }, /signed for attempt 1, not 2/],
      [{ ...signed, attempt: 2 }, { ...binding, attempt: 2 }, /signature does not match/],
      [{ ...signed, body: signed.body.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }, binding, /signature does not match/],
      [admission.sign(binding, { text: 'forged with the queue secret' }, 60), binding, /signature does not match/],
    ];
    for (const [given, expected, why] of refusals) expect(channel.verify(given, expected)).toMatchObject({ ok: false, why: expect.stringMatching(why) });
    expect(keys.channel('r1', 2).verify(signed, binding)).toMatchObject({ ok: false, why: expect.stringMatching(/signature does not match/) });
    const expired = keys.channel('r1', 1).sign(binding, 'late', -1);
    expect(channel.verify(expired, binding)).toMatchObject({ ok: false, why: expect.stringMatching(/expired/) });
  });

  it('open a grant for the worker it was sealed for, never for another, nor one sealed by anyone but the bridge', async () => {
    const keys = await BridgeKeys.load(data.path);
    await keys.publish(client, admission);
    const [a, b] = [new WorkerKeys(admission), new WorkerKeys(admission)];
    const grant = keys.grant(a.publicKey, grantContext('c1', 3), { key: 'the placement key' });
    expect(await a.open(client, 'c1', 3, grant)).toEqual({ body: { key: 'the placement key' } });
    expect(await b.open(client, 'c1', 3, grant)).toMatchObject({ refused: expect.stringMatching(/does not open with this worker’s key/) });
    expect(await a.open(client, 'c1', 4, grant)).toMatchObject({ refused: expect.stringMatching(/does not open/) });
    // A grant made by another holder of the queue secret, and that holder's key put in Redis for the bridge's: both refused.
    const other = await tempDir('bridge-keys-forger-');
    const forger = await BridgeKeys.load(other.path);
    await other.remove();
    const forged = forger.grant(a.publicKey, grantContext('c1', 3), { key: 'a key of the forger' });
    expect(await a.open(client, 'c1', 3, forged)).toMatchObject({ refused: expect.stringMatching(/does not open/) });
    await forger.publish(client, admission);
    expect(await a.open(client, 'c1', 3, forged)).toMatchObject({ refused: expect.stringMatching(/changed since this worker first saw it/) });
    await client.del(BRIDGE_KEY);
  });
});
