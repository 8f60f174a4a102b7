import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/kernel/protocols/events.ts';
import { limitOfText } from '../../src/kernel/protocols/quota.ts';
import { decodeFixture } from './decode-fixture.ts';

/** The events that say the turn was refused for a limit, and the limit each names. */
function limits(events: AgentEvent[]) {
  return events.flatMap((event) => ((event.type === 'result' || event.type === 'error') && event.limit ? [{ type: event.type, limit: event.limit }] : []));
}

/** A clock time the CLI named, as the next such time to come in the zone the test runs in. */
function isNextClockTime(at: number | undefined, hours: number, minutes: number): boolean {
  if (at === undefined) return false;
  const date = new Date(at);
  return date.getHours() === hours && date.getMinutes() === minutes && at > Date.now() && at <= Date.now() + 24 * 3600_000;
}

describe('the decoders recognise what the real CLIs print when a limit refuses them', () => {
  it("claude: a subscription's usage limit, resetting when its rate-limit event says", () => {
    const raw = readFileSync(new URL('../fixtures/transcripts/claude-2.1.330-usage-limit.raw.ndjson', import.meta.url), 'utf8');
    const resetsAt = Number(/"resetsAt":(\d+)/.exec(raw)![1]) * 1000;
    const events = decodeFixture('claude-stream-json', 'claude-2.1.330-usage-limit.raw.ndjson');
    expect(events.at(-1)).toMatchObject({
      type: 'result',
      isError: true,
      text: expect.stringMatching(/^You've hit your 5-hour limit · resets/),
      limit: { kind: 'usage', resetsAt },
    });
    // The API error's words come once, in the result: not also as an answer.
    expect(events.filter((event) => event.type === 'text')).toEqual([]);
  });

  it("claude: an API key's rate limit (429 rate_limit_error), with no time said", () => {
    expect(limits(decodeFixture('claude-stream-json', 'claude-2.1.330-rate-limit.raw.ndjson'))).toEqual([{ type: 'result', limit: { kind: 'rate' } }]);
  });

  it('claude: a key with no credit left', () => {
    const events = decodeFixture('claude-stream-json', 'claude-2.1.330-no-credit.raw.ndjson');
    expect(events.at(-1)).toMatchObject({ type: 'result', isError: true, text: 'Credit balance is too low', limit: { kind: 'credit' } });
  });

  it('claude: an answer that only mentions a limit is no limit', () => {
    expect(limits(decodeFixture('claude-stream-json', 'claude-2.1.330-http401.raw.ndjson'))).toEqual([]);
    expect(limits(decodeFixture('claude-stream-json', 'claude-2.1.330-text.raw.ndjson'))).toEqual([]);
  });

  it("codex: a ChatGPT plan's usage limit, resetting at the time it names", () => {
    const found = limits(decodeFixture('codex-exec-json', 'codex-0.169.0-usage-limit.raw.ndjson'));
    expect(found.map((f) => [f.type, f.limit.kind])).toEqual([
      ['error', 'usage'],
      ['result', 'usage'],
    ]);
    expect(isNextClockTime(found[1]!.limit.resetsAt, 6, 4)).toBe(true);
  });

  it('codex: 429s past its retries, and an OpenAI key with no quota (insufficient_quota)', () => {
    expect(limits(decodeFixture('codex-exec-json', 'codex-0.169.0-rate-limit.raw.ndjson')).map((f) => f.limit)).toEqual([{ kind: 'rate' }, { kind: 'rate' }]);
    expect(limits(decodeFixture('codex-exec-json', 'codex-0.169.0-no-credit.raw.ndjson')).map((f) => f.limit)).toEqual([
      { kind: 'credit' },
      { kind: 'credit' },
    ]);
    expect(limits(decodeFixture('codex-exec-json', 'codex-0.169.0-text.raw.ndjson'))).toEqual([]);
  });

  it("droid: the model API's 429 and its no-credit answer, passed on as errors", () => {
    expect(limits(decodeFixture('droid-stream-json', 'droid-0.225.2-byok-rate-limit.raw.ndjson'))).toEqual([{ type: 'error', limit: { kind: 'rate' } }]);
    expect(limits(decodeFixture('droid-stream-json', 'droid-0.225.2-byok-no-credit.raw.ndjson'))).toEqual([{ type: 'error', limit: { kind: 'credit' } }]);
    expect(limits(decodeFixture('droid-stream-json', 'droid-0.225.2-no-login.raw.ndjson'))).toEqual([]);
  });
});

describe('limitOfText', () => {
  const now = Date.UTC(2026, 10, 26, 13, 30);

  it('reads when a limit resets from the words the CLIs use', () => {
    expect(limitOfText("You've hit your 5-hour limit · resets 2pm (UTC)", now)).toEqual({ kind: 'usage', resetsAt: Date.UTC(2026, 10, 26, 14, 0) });
    expect(limitOfText("You've hit your weekly limit · resets 9:15am (UTC)", now)).toEqual({ kind: 'usage', resetsAt: Date.UTC(2026, 10, 27, 9, 15) });
    expect(limitOfText('Rate limit reached for gpt-5.5 on requests per min (RPM). Please try again in 20s.', now)).toEqual({
      kind: 'rate',
      resetsAt: now + 20_000,
    });
  });

  it('names no limit in an ordinary failure', () => {
    expect(limitOfText('Failed to authenticate. API Error: 401 invalid x-api-key', now)).toBeUndefined();
    expect(limitOfText('stream disconnected before completion', now)).toBeUndefined();
  });
});
