import { describe, expect, it } from 'vitest';
import { QueueSealer } from '../../src/queue/sealing.ts';
import { openSessionState, packSessionState, SESSION_SEALING, SESSION_STATE_MAX_BYTES } from '../../src/queue/session-state.ts';
import { QueueSigner, type Signed } from '../../src/queue/signing.ts';

// A chat's session state crosses Redis and sits on the bridge's disk: signed with the queue
// secret, sealed (AES-256-GCM) for its chat and session, and capped in size.
const SECRET = 'a-queue-secret-of-at-least-32-characters';
const signer = new QueueSigner(SECRET);
const sealer = new QueueSealer(SECRET, SESSION_SEALING);
const files = [
  { path: 'session-1.jsonl', data: Buffer.from('{"prompt":"the deploy key is in .env"}\n') },
  { path: 'session-1/subagents/a.jsonl', data: Buffer.from('{}\n') },
];
const packed = () => {
  const result = packSessionState(signer, sealer, 'chat-a', 'session-1', files);
  if (!('state' in result)) throw new Error(result.refused);
  return result.state;
};

describe("a chat's session state", () => {
  it('opens as its files for its chat, and nothing of them reads in the clear', () => {
    const state = packed();
    expect(JSON.stringify(state)).not.toContain('deploy key');
    const opened = openSessionState(signer, sealer, 'chat-a', JSON.stringify(state));
    expect(opened).toEqual({ sessionId: 'session-1', files });
  });

  it('is refused with a bad signature, altered, moved to another chat, or from another secret', () => {
    const state = packed();
    const otherSecret = `${SECRET}-other`;
    const foreign = packSessionState(new QueueSigner(otherSecret), new QueueSealer(otherSecret, SESSION_SEALING), 'chat-a', 'session-1', files);
    const cases: [unknown, string, RegExp][] = [
      [{ ...state, sig: state.sig.slice(0, -4) + 'AAAA' }, 'chat-a', /signature does not match/],
      [{ ...state, body: state.body.replace('session-1', 'session-2') }, 'chat-a', /signature does not match/],
      [state, 'chat-b', /signed for run chat-a, not chat-b/],
      [(foreign as { state: Signed }).state, 'chat-a', /signature does not match/],
      [{ ...state, kind: 'event' }, 'chat-a', /signature does not match/],
    ];
    for (const [given, chat, why] of cases) expect(openSessionState(signer, sealer, chat, given)).toEqual({ refused: expect.stringMatching(why) });
  });

  it('is refused when signed but sealed with another key (its signature checks out, its contents do not)', () => {
    const state = packed();
    const resealed = new QueueSealer(SECRET, 'another-purpose').seal(Buffer.from('{}'), 'chat-a\nsession-1');
    const forged = signer.sign({ kind: 'state', runId: 'chat-a', attempt: 0 }, { ...JSON.parse(state.body), sealed: resealed }, 60);
    expect(openSessionState(signer, sealer, 'chat-a', forged)).toEqual({ refused: 'it does not decrypt with the queue secret for this chat' });
  });

  it('is not made past its cap: the reason names the sizes', () => {
    const big = [{ path: 'session-1.jsonl', data: Buffer.alloc(SESSION_STATE_MAX_BYTES + 1) }];
    expect(packSessionState(signer, sealer, 'chat-a', 'session-1', big)).toEqual({
      refused: expect.stringMatching(/^its session's files are 32\.0 MB, over the 32\.0 MB a session may carry between workers$/),
    });
  });
});
