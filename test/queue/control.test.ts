import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { onAsks, readAsks, forgetAsks, RunControl } from '../../src/queue/control.ts';
import { keys } from '../../src/queue/redis.ts';
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

describe('RunControl', () => {
  it('keeps each ask for the worker to read: the stop and its reason, messages taken once in order, the holds now', async () => {
    const bridge = new RunControl(client(), 60);
    const worker = client();
    await bridge.send('r1', { id: 'a', text: 'first' });
    await bridge.send('r1', { id: 'b', text: 'second' });
    await bridge.hold('r1', 'h1');
    await bridge.hold('r1', 'h2');
    await bridge.release('r1', 'h1');
    await bridge.send('r2', { id: 'c', text: 'for another run' });

    // Two workers reading at once (a bell and a resubscription): each message goes to one.
    const [one, two] = await Promise.all([readAsks(worker, 'r1'), readAsks(client(), 'r1')]);
    expect([...one.messages, ...two.messages]).toEqual([
      { id: 'a', text: 'first' },
      { id: 'b', text: 'second' },
    ]);
    expect(one.holds).toEqual(['h2']);
    expect(one.stop).toBeUndefined();

    await bridge.stop('r1', 'stopped by Ada');
    expect(await readAsks(worker, 'r1')).toEqual({ stop: 'stopped by Ada', messages: [], holds: ['h2'] });
    expect((await readAsks(worker, 'r2')).messages).toEqual([{ id: 'c', text: 'for another run' }]);

    // Once the run has ended there: its stop stays, for an attempt after a stall.
    await forgetAsks(worker, 'r1');
    expect(await readAsks(worker, 'r1')).toEqual({ stop: 'stopped by Ada', messages: [], holds: [] });
    expect(await worker.ttl(keys.stop('r1'))).toBeGreaterThan(0);
  });

  it('rings with the run for each ask, and with none once a subscriber cut off is subscribed again', async () => {
    const bridge = new RunControl(client(), 60);
    const heard: (string | undefined)[] = [];
    await onAsks(client(), (runId) => heard.push(runId));
    await bridge.send('r1', { id: 'a', text: 'hello' });
    await bridge.stop('r2', 'stopped');
    await expect.poll(() => heard).toEqual(['r1', 'r2']);

    await client().client('KILL', 'TYPE', 'pubsub');
    await expect.poll(() => heard).toEqual(['r1', 'r2', undefined]);
    await bridge.hold('r3', 'h');
    await expect.poll(() => heard).toEqual(['r1', 'r2', undefined, 'r3']);
  });
});
