import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Turn } from '../../src/engine/session/turn.ts';
import { fakeAdapter, fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';

// A CLI that gets nowhere is not "working" for ever: a turn whose CLI shows no progress of the
// model for the silence (short here) ends, saying why; real work, however quiet, is never cut.
let world: FakeCliWorld;
beforeEach(async () => (world = await fakeCliWorld()));
afterEach(() => world.cleanup());

const SILENCE_MS = 1000;

function runTurn(prompt: string) {
  const turn = new Turn({ adapter: fakeAdapter(), spec: { prompt }, cwd: world.dir, env: world.env, silenceMs: SILENCE_MS, graceMs: 300 });
  return turn.done;
}

describe('a silent CLI', () => {
  it('ends after the silence, with the reason and what to check', async () => {
    const started = Date.now();
    const outcome = await runTurn('hang');
    expect(Date.now() - started).toBeGreaterThanOrEqual(SILENCE_MS);
    expect(outcome.status).toBe('timed_out');
    expect(outcome.error).toBe(
      'fake showed no progress for 1 s, so the turn was ended. Check its network and its credentials (npm run doctor); BRIDGE_SILENCE_SECONDS sets how long to wait.',
    );
  });

  it('ends too when all it prints is retries, quoting the last', async () => {
    const outcome = await runTurn('reconnecting');
    expect(outcome.status).toBe('timed_out');
    expect(outcome.error).toMatch(
      /^fake showed no progress for 1 s \(its last words: ".*Reconnecting… \d+\/5 waiting for network.*"\), so the turn was ended\./,
    );
  });

  it('is not cut while a tool call runs longer than the silence (a long build prints nothing)', async () => {
    const outcome = await runTurn('slow-tool:2.5');
    expect(outcome).toMatchObject({ status: 'completed', text: 'echo: slow-tool:2.5 (turn 1)' });
  });
});
