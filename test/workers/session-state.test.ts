import { describe, expect, it } from 'vitest';
import { QueueSealer } from '../../src/work/workers/sealing.ts';
import {
  acceptSessionState,
  openKept,
  packSessionState,
  sealKept,
  SESSION_STATE_MAX_BYTES,
  STATE_VALID_SECONDS,
  unpackFiles,
  type SessionState,
} from '../../src/work/workers/session-state.ts';

// A chat's session state crosses Redis once, sealed in its placement's channel: it is bound to
// that placement and numbered within it, lives minutes, and is kept on the bridge's disk sealed
// with the bridge's own key.
const files = [
  { path: 'session-1.jsonl', data: Buffer.from('{"prompt":"the deploy key is in .env"}\n') },
  { path: 'session-1/subagents/a.jsonl', data: Buffer.from('{}\n') },
];
const packed = (placement: number, seq: number, now = Date.now()) => {
  const result = packSessionState(placement, seq, 'session-1', files, now);
  if (!('state' in result)) throw new Error(result.refused);
  return result.state;
};

describe("a chat's session state", () => {
  it('unpacks as its files; kept, it reads as nothing and opens only with the key and chat it was sealed for', () => {
    const state = packed(2, 1);
    expect(unpackFiles(state.packed)).toEqual(files);
    const accepted = acceptSessionState(state, 2, undefined);
    if (!('state' in accepted)) throw new Error(accepted.refused);
    const sealer = new QueueSealer(Buffer.alloc(32, 7), 'session-states');
    const kept = sealKept(sealer, 'chat-a', accepted.state);
    expect(kept).not.toContain('deploy key');
    expect(openKept(sealer, 'chat-a', kept)).toMatchObject({ sessionId: 'session-1', placement: 2, seq: 1 });
    expect(openKept(sealer, 'chat-b', kept)).toBeUndefined();
    expect(openKept(new QueueSealer(Buffer.alloc(32, 8), 'session-states'), 'chat-a', kept)).toBeUndefined();
  });

  it('is refused from another placement, expired, replayed or older than the one kept', () => {
    const now = Date.now();
    const kept = { sessionId: 'session-1', packed: '', bytes: 1, placement: 2, seq: 3 };
    const cases: [SessionState, RegExp][] = [
      [packed(1, 9), /of placement 1, not the session's 2/],
      [packed(2, 4, now - STATE_VALID_SECONDS * 1000 - 1), /expired/],
      [packed(2, 3), /not newer than the state kept/],
      [packed(2, 2), /not newer than the state kept/],
    ];
    for (const [state, why] of cases) expect(acceptSessionState(state, 2, kept, now)).toEqual({ refused: expect.stringMatching(why) });
    expect(acceptSessionState(packed(2, 4), 2, kept, now)).toMatchObject({ state: { placement: 2, seq: 4 } });
    expect(acceptSessionState(packed(3, 1), 3, kept, now)).toMatchObject({ state: { placement: 3, seq: 1 } });
    expect(acceptSessionState({ sessionId: 'x' }, 2, kept, now)).toEqual({ refused: 'it is not a session state' });
  });

  it('is not made past its cap: the reason names the sizes', () => {
    const big = [{ path: 'session-1.jsonl', data: Buffer.alloc(SESSION_STATE_MAX_BYTES + 1) }];
    expect(packSessionState(1, 1, 'session-1', big)).toEqual({
      refused: expect.stringMatching(/^its session's files are 32\.0 MB, over the 32\.0 MB a session may carry between workers$/),
    });
  });
});
