import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { onAsks, readAsks, forgetAsks, RunControl, type AskReader } from '../../src/queue/control.ts';
import { keys } from '../../src/queue/redis.ts';
import { QueueSigner } from '../../src/queue/signing.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';

// What the bridge asks of a run on a worker, through a real redis-server: kept in keys, rung
// on a bell, read by the worker.
let redis: RedisServer;
const clients: Redis[] = [];
const client = () => {
  const made = new Redis(redis.url, { maxRetriesPerRequest: null, retryStrategy: () => 50 });
  clients.push(made);
  return made;
};
beforeAll(async () => (redis = await startRedis()));
afterAll(() => redis?.stop());
afterEach(async () => {
  await clients[0]?.flushall();
  for (const made of clients.splice(0)) made.disconnect();
});

const signer = new QueueSigner('a-queue-secret-of-at-least-32-characters');
const reader = (runId: string, attempt = 1): AskReader => ({ runId, attempt, taken: new Set(), holdsAt: 0 });

describe('RunControl', () => {
  it('keeps each ask for the worker to read: the stop and its reason, messages taken once in order, the holds now', async () => {
    const bridge = new RunControl(client(), 60, signer);
    const worker = client();
    await bridge.send('r1', 1, { id: 'a', text: 'first' });
    await bridge.send('r1', 1, { id: 'b', text: 'second' });
    await bridge.hold('r1', 1, 'h1');
    await bridge.hold('r1', 1, 'h2');
    await bridge.release('r1', 1, 'h1');
    await bridge.send('r2', 1, { id: 'c', text: 'for another run' });

    // Two workers reading at once (a bell and a resubscription): each message goes to one.
    const r1 = reader('r1');
    const [one, two] = await Promise.all([readAsks(worker, signer, r1), readAsks(client(), signer, reader('r1'))]);
    expect([...one.messages, ...two.messages]).toEqual([
      { id: 'a', text: 'first' },
      { id: 'b', text: 'second' },
    ]);
    expect(one.holds).toEqual(['h2']);
    expect(one.stop).toBeUndefined();

    await bridge.stop('r1', 1, 'stopped by Ada');
    expect(await readAsks(worker, signer, r1)).toEqual({ stop: 'stopped by Ada', messages: [], holds: ['h2'], refused: [] });
    expect((await readAsks(worker, signer, reader('r2'))).messages).toEqual([{ id: 'c', text: 'for another run' }]);

    // Once the run has ended there: its stop stays, for an attempt after a stall.
    await forgetAsks(worker, 'r1');
    expect(await readAsks(worker, signer, r1)).toEqual({ stop: 'stopped by Ada', messages: [], holds: [], refused: [] });
    expect(await worker.ttl(keys.stop('r1'))).toBeGreaterThan(0);
  });

  it('refuses asks written without the secret, for another run or attempt, or put back after they were taken', async () => {
    const redis = client();
    const bridge = new RunControl(redis, 60, signer);
    const forger = new RunControl(redis, 60, new QueueSigner('another-secret-of-at-least-32-characters'));
    await redis.set(keys.stop('r1'), 'stopped by nobody');
    await redis.rpush(keys.inbox('r1'), JSON.stringify({ id: 'x', text: 'unsigned' }));
    await forger.send('r1', 1, { id: 'y', text: 'forged' });
    await new RunControl(redis, 60, signer).hold('r1', 2, 'h-of-attempt-2');
    const r1 = reader('r1');
    expect(await readAsks(redis, signer, r1)).toEqual({
      messages: [],
      refused: [
        'a stop: it is not signed',
        'a message: it is not signed',
        'a message: its signature does not match (altered, or signed with another secret)',
        'its holds: it is signed for attempt 2, not 1',
      ],
    });
    await redis.del(keys.holds('r1'));

    // A stop signed for another run, moved to this one.
    await bridge.stop('r2', 1, 'stopped by Ada');
    await redis.set(keys.stop('r1'), (await redis.get(keys.stop('r2')))!);
    expect((await readAsks(redis, signer, r1)).refused).toEqual(['a stop: it is signed for run r2, not r1']);
    await redis.del(keys.stop('r1'));

    // A message taken, then put back: not delivered twice.
    await bridge.send('r1', 1, { id: 'a', text: 'once' });
    const [message] = await redis.lrange(keys.inbox('r1'), 0, -1);
    expect((await readAsks(redis, signer, r1)).messages).toEqual([{ id: 'a', text: 'once' }]);
    await redis.rpush(keys.inbox('r1'), message!);
    expect(await readAsks(redis, signer, r1)).toMatchObject({ messages: [], refused: ['a message: it was taken before (replayed)'] });

    // The holds set back to an older one: refused, and the holds taken stay as they were.
    await bridge.hold('r1', 1, 'h1');
    const older = (await redis.get(keys.holds('r1')))!;
    await bridge.release('r1', 1, 'h1');
    expect((await readAsks(redis, signer, r1)).holds).toEqual([]);
    await redis.set(keys.holds('r1'), older);
    expect(await readAsks(redis, signer, r1)).toMatchObject({ refused: ['its holds: an older set than the one taken (replayed)'] });
    expect((await readAsks(redis, signer, r1)).holds).toBeUndefined();
  });

  it('rings with the run for each ask, and with none once a subscriber cut off is subscribed again', async () => {
    const bridge = new RunControl(client(), 60, signer);
    const heard: (string | undefined)[] = [];
    await onAsks(client(), (runId) => heard.push(runId));
    await bridge.send('r1', 1, { id: 'a', text: 'hello' });
    await bridge.stop('r2', 1, 'stopped');
    await expect.poll(() => heard).toEqual(['r1', 'r2']);

    await client().client('KILL', 'TYPE', 'pubsub');
    await expect.poll(() => heard).toEqual(['r1', 'r2', undefined]);
    await bridge.hold('r3', 1, 'h');
    await expect.poll(() => heard).toEqual(['r1', 'r2', undefined, 'r3']);
  });
});
