import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAdapters, type Adapter } from '../../src/engine/adapters/load.ts';
import { LivePool } from '../../src/engine/session/live-pool.ts';
import { AgentSession } from '../../src/engine/session/session.ts';
import { type CarriedTurn } from '../../src/engine/session/turn-controls.ts';
import type { TurnOutcome } from '../../src/engine/session/running-turn.ts';
import { FAKE_AGENT, fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';

// A live CLI (Claude Code's stream-json input, played by the fake) takes a message that reaches
// it after its result as a turn of its own, with its own result. Each result goes to the
// messages it answers: the turn's own to the turn, the next to the message, never to the turn
// the session starts next.
let world: FakeCliWorld;
let adapter: Adapter;
beforeEach(async () => {
  world = await fakeCliWorld();
  const adapters = await loadAdapters(fileURLToPath(new URL('../../adapters/', import.meta.url)), { BRIDGE_CLAUDE_COMMAND: FAKE_AGENT });
  adapter = adapters.get('claude')!;
});
afterEach(() => world.cleanup());

const liveSession = () => new AgentSession({ adapter, cwd: world.dir, env: world.env, graceMs: 300, live: new LivePool({ max: 4, idleMs: 60_000 }) });
const started = (prompt: string) => expect.poll(async () => (await world.invocations()).some((c) => c.prompt === prompt), { timeout: 20_000 }).toBe(true);

/** A follower for the turn the CLI takes by itself: what it was given, and its outcome. */
function follower() {
  const carried: { ids: string[]; events: string[]; started: number; outcome?: Promise<TurnOutcome> } = { ids: [], events: [], started: 0 };
  const onCarried = (ids: string[]): CarriedTurn => {
    carried.ids = ids;
    let settle!: (outcome: TurnOutcome) => void;
    carried.outcome = new Promise((resolve) => (settle = resolve));
    return { onStart: () => carried.started++, onEvent: (event) => carried.events.push(event.type), ended: settle };
  };
  return { carried, onCarried };
}

describe('a message that reaches a live CLI after its result', () => {
  it('is a turn of its own: the turn keeps its answer, the message gets the next, the queued turn its own', async () => {
    const session = liveSession();
    const { carried, onCarried } = follower();
    const first = session.send('end-at-message first', { onCarried });
    const queued = session.send('queued next');
    await started('end-at-message first');
    expect(session.steer('steered late', 'late-1')).toBe(true);
    expect((await first).text).toBe('echo: end-at-message first (turn 1)');
    expect(carried.ids).toEqual(['late-1']);
    // At work from the moment the first turn ended, before the queued one.
    expect(carried.started).toBe(1);
    const own = await carried.outcome!;
    expect([own.status, own.text]).toEqual(['completed', 'echo: steered late (turn 2)']);
    expect(carried.events).toContain('result');
    expect((await queued).text).toBe('echo: queued next (turn 3)');
    const calls = await world.invocations();
    expect(new Set(calls.map((c) => c.pid)).size).toBe(1);
    await session.closeLive();
  });

  it('without a follower for it, belongs to the turn, which ends with the answer to it', async () => {
    const session = liveSession();
    const first = session.send('end-at-message first');
    await started('end-at-message first');
    expect(session.steer('steered late', 'late-1')).toBe(true);
    expect((await first).text).toBe('echo: steered late (turn 2)');
    await session.closeLive();
  });

  it('a stop of the turn the CLI took by itself stops it, and the session goes on', async () => {
    const session = liveSession();
    const { carried, onCarried } = follower();
    const first = session.send('end-at-message first', { onCarried });
    await started('end-at-message first');
    expect(session.steer('hang late', 'late-1')).toBe(true);
    await first;
    await expect.poll(async () => (await world.hanging()).length, { timeout: 20_000 }).toBe(1);
    await session.stop('enough');
    expect((await carried.outcome!).status).toBe('stopped');
    expect(session.busy).toBe(false);
    expect((await session.send('after')).text).toMatch(/^echo: after \(turn \d\)$/);
    await session.closeLive();
  });
});
