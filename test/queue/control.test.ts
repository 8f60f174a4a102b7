import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { onAsks, readAsks, forgetAsks, RunControl, type AskReader } from '../../src/work/queue/control.ts';
import { keys } from '../../src/work/queue/redis.ts';
import { randomBytes } from 'node:crypto';
import { SealedChannel } from '../../src/work/queue/channel.ts';
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

// Each placement's channel, as the bridge derives it and its worker is granted it.
const channels = new Map<string, SealedChannel>();
const channel = (runId: string, attempt = 1) => {
  const id = `${runId}/${attempt}`;
  if (!channels.has(id)) channels.set(id, new SealedChannel(randomBytes(32)));
  return channels.get(id)!;
};
const reader = (runId: string, attempt = 1): AskReader => ({ runId, attempt, taken: new Set(), holdsAt: 0 });
/** The bridge's control, with these runs placed (placement 1). */
const placedControl = async (redis: Redis, ...runIds: string[]) => {
  const control = new RunControl(redis, 60);
  for (const runId of runIds) await control.placed(runId, { attempt: 1, channel: channel(runId) });
  return control;
};

describe('RunControl', () => {
  it('keeps each ask for the worker to read: the stop and its reason, messages taken once in order, the holds now', async () => {
    const bridge = await placedControl(client(), 'r1', 'r2', 'r3');
    const worker = client();
    await bridge.send('r1', { id: 'a', text: 'first' });
    await bridge.send('r1', { id: 'b', text: 'second' });
    await bridge.hold('r1', 'h1');
    await bridge.hold('r1', 'h2');
    await bridge.release('r1', 'h1');
    await bridge.send('r2', { id: 'c', text: 'for another run' });

    // Two workers reading at once (a bell and a resubscription): each message goes to one.
    const r1 = reader('r1');
    const [one, two] = await Promise.all([readAsks(worker, channel('r1'), r1), readAsks(client(), channel('r1'), reader('r1'))]);
    expect([...one.messages, ...two.messages]).toEqual([
      { id: 'a', text: 'first' },
      { id: 'b', text: 'second' },
    ]);
    expect(one.holds).toEqual(['h2']);
    expect(one.stop).toBeUndefined();

    await bridge.stop('r1', 'stopped by Ada');
    expect(await readAsks(worker, channel('r1'), r1)).toEqual({ stop: 'stopped by Ada', messages: [], holds: ['h2'], refused: [] });
    expect((await readAsks(worker, channel('r2'), reader('r2'))).messages).toEqual([{ id: 'c', text: 'for another run' }]);

    // Once the run has ended there: its stop stays, for an attempt after a stall.
    await forgetAsks(worker, 'r1');
    expect(await readAsks(worker, channel('r1'), r1)).toEqual({ stop: 'stopped by Ada', messages: [], holds: [], refused: [] });
    expect(await worker.ttl(keys.stop('r1'))).toBeGreaterThan(0);
  });

  it("refuses asks not sealed in the placement's channel, for another run or placement, or put back after they were taken", async () => {
    const redis = client();
    const bridge = await placedControl(redis, 'r1', 'r2');
    // Another worker's placement (its channel is not this run's), and the same run's placement 2.
    const forger = new RunControl(redis, 60);
    await forger.placed('r1', { attempt: 1, channel: new SealedChannel(randomBytes(32)) });
    await redis.set(keys.stop('r1'), 'stopped by nobody');
    await redis.rpush(keys.inbox('r1'), JSON.stringify({ id: 'x', text: 'unsigned' }));
    await forger.send('r1', { id: 'y', text: 'forged' });
    const later = new RunControl(redis, 60);
    await later.placed('r1', { attempt: 2, channel: channel('r1') });
    await later.hold('r1', 'h-of-attempt-2');
    const r1 = reader('r1');
    expect(await readAsks(redis, channel('r1'), r1)).toEqual({
      messages: [],
      refused: [
        'a stop: it is not signed',
        'a message: it is not signed',
        'a message: its signature does not match (altered, or signed with another secret)',
        'its holds: it is signed for attempt 2, not 1',
      ],
    });
    await redis.del(keys.holds('r1'));

    // A stop sealed for another run, moved to this one: another run's channel.
    await bridge.stop('r2', 'stopped by Ada');
    await redis.set(keys.stop('r1'), (await redis.get(keys.stop('r2')))!);
    expect((await readAsks(redis, channel('r1'), r1)).refused).toEqual(['a stop: its signature does not match (altered, or signed with another secret)']);
    await redis.del(keys.stop('r1'));

    // A message taken, then put back: not delivered twice.
    await bridge.send('r1', { id: 'a', text: 'once' });
    const [message] = await redis.lrange(keys.inbox('r1'), 0, -1);
    expect((await readAsks(redis, channel('r1'), r1)).messages).toEqual([{ id: 'a', text: 'once' }]);
    await redis.rpush(keys.inbox('r1'), message!);
    expect(await readAsks(redis, channel('r1'), r1)).toMatchObject({ messages: [], refused: ['a message: it was taken before (replayed)'] });

    // The holds set back to an older one: refused, and the holds taken stay as they were.
    await bridge.hold('r1', 'h1');
    const older = (await redis.get(keys.holds('r1')))!;
    await bridge.release('r1', 'h1');
    expect((await readAsks(redis, channel('r1'), r1)).holds).toEqual([]);
    await redis.set(keys.holds('r1'), older);
    expect(await readAsks(redis, channel('r1'), r1)).toMatchObject({ refused: ['its holds: an older set than the one taken (replayed)'] });
    expect((await readAsks(redis, channel('r1'), r1)).holds).toBeUndefined();
  });

  it('rings with the run for each ask, and with none once a subscriber cut off is subscribed again', async () => {
    const bridge = await placedControl(client(), 'r1', 'r2', 'r3');
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

  it('keeps what is asked before the run is placed, and writes it for each placement: its worker alone reads it', async () => {
    const redis = client();
    const bridge = new RunControl(redis, 60);
    await bridge.send('r1', { id: 'a', text: 'early' });
    await bridge.hold('r1', 'h1');
    expect(await redis.exists(keys.inbox('r1'), keys.holds('r1'))).toBe(0);
    await bridge.placed('r1', { attempt: 1, channel: channel('r1', 1) });
    await bridge.stop('r1', 'stopped by Ada');
    expect(await readAsks(redis, channel('r1', 1), reader('r1', 1))).toMatchObject({
      stop: 'stopped by Ada',
      messages: [{ id: 'a', text: 'early' }],
      holds: ['h1'],
      refused: [],
    });
    // Placed anew (handed back): what was not taken, the stop and the holds are sealed for placement 2 alone.
    await bridge.send('r1', { id: 'b', text: 'untaken' });
    await bridge.placed('r1', { attempt: 2, channel: channel('r1', 2) });
    expect((await readAsks(redis, channel('r1', 1), reader('r1', 1))).refused[0]).toMatch(/^a stop: its signature does not match/);
    await bridge.send('r1', { id: 'c', text: 'new' });
    const asks = await readAsks(redis, channel('r1', 2), reader('r1', 2));
    expect(asks).toMatchObject({ stop: 'stopped by Ada', holds: ['h1'], refused: [] });
    expect(asks.messages.map((m) => m.id)).toEqual(['c']);
  });
});
