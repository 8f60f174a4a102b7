import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { plainText } from '../../src/rich/index.ts';
import { openApp } from '../support/app-world.ts';
import { chat } from '../support/chats.ts';
import { fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';

// Once a drain begins no turn starts in this process, however a message got to the chat's
// turns: it waits, pending, for the next start, behind those the drain kept.

/** Holds the chat's "⏳ Queued" notices until `release`, as a flood limit would. */
class HeldNotices extends RecordingOutbound {
  release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));

  override async send(...args: Parameters<RecordingOutbound['send']>): ReturnType<RecordingOutbound['send']> {
    if (plainText(args[1]).startsWith('⏳ Queued')) await this.gate;
    return super.send(...args);
  }
}

let world: FakeCliWorld;
let out: HeldNotices;
let app: App;
beforeEach(async () => {
  world = await fakeCliWorld();
  out = new HeldNotices();
  app = await openApp(world, out, { env: { BRIDGE_ALLOWED_USERS: '1', BRIDGE_DRAIN_SECONDS: '30' } });
});
afterEach(async () => {
  out.release();
  await app.shutdown();
  await world.cleanup();
});

const address = chat(-1);
const say = (text: string) => app.bridge.handleMessage({ address, user: { id: '1', name: 'Ada' }, text });

/** The chat's first turn at work, in queue mode. */
async function atWork(text: string) {
  await say('/busy queue');
  await say(text);
  const session = app.bridge.chats.get(address);
  await expect.poll(() => session.busy).toBe(true);
  return session;
}

describe('a drain', () => {
  it('keeps a message that reaches the turns after it began (a file was being saved, a write) for the next start, in order', async () => {
    const session = await atWork('sleep:1 first');
    out.release();
    await say('say:second');
    const drained = app.drain();
    await app.bridge.startTurn(session, { text: 'say:late' }, '1');
    await drained;
    expect((await world.invocations()).map((call) => call.prompt)).toEqual(['sleep:1 first']);
    expect(session.record.pending?.map((p) => p.text)).toEqual(['say:second', 'say:late']);
  });

  it('keeps a message whose queue notice was held when it began', async () => {
    const session = await atWork('sleep:1 first');
    const second = say('say:second');
    await expect.poll(() => session.record.pending?.length).toBe(2);
    const drained = app.drain();
    out.release();
    await second;
    await drained;
    expect((await world.invocations()).map((call) => call.prompt)).toEqual(['sleep:1 first']);
    expect(session.record.pending?.map((p) => p.text)).toEqual(['say:second']);
  });
});
