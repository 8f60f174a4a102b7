import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REFUSING_PORT } from '../support/free-port.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { ownerIn } from '../support/telegram-world.ts';

// A CLI that cannot work says so in the chat: the real claude whose model API does not answer,
// the real codex with no credentials. Before, the first sat at `working · 0:00` for minutes,
// and the second for ever (`Reconnecting... waiting for network`, seen only in a run's log).
let real: RealCliWorld | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await real?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  real = undefined;
  scratch = undefined;
});

const CHAT = -4901;
const { say, waitText } = ownerIn(() => real!.world, CHAT, 60_000);

describe('no silence', () => {
  it("says within seconds that claude gets no answer from its model API: where that is, and claude's own words; the clock goes on", async () => {
    const closed = `http://127.0.0.1:${REFUSING_PORT}`;
    // As claude is by default: it retries, for minutes (the test environment turns that off).
    real = await startRealCliWorld('claude', undefined, { ANTHROPIC_BASE_URL: closed, CLAUDE_CODE_MAX_RETRIES: '10' });
    say('hello');
    const said = await waitText(
      new RegExp(`⚠️ No answer yet from claude's model API \\(${closed.replaceAll('.', '\\.')}\\)\\. claude says: "API retry \\d+ of 10`),
    );
    expect(said.text).toMatch(/^⚙️ claude · working · \d+:\d\d\n/);
    expect(said.text).toContain('no HTTP answer');
    // The progress message's clock counts on while claude retries.
    await waitText(/^⚙️ claude · working · 0:(1\d|[2-5]\d)\n/);
    say('/stop');
    await waitText(/^⏹ claude · stopped/);
    // A run says it in its chat too, once, where it would otherwise say it only in its log.
    say('/spawn --label Probe "hello"');
    const run = await waitText(/^⚠️ #1 Probe: /);
    expect(run.text).toMatch(
      new RegExp(`^⚠️ #1 Probe: No answer yet from claude's model API \\(${closed.replaceAll('.', '\\.')}\\)\\. claude says: "API retry \\d+ of 10`),
    );
    say('/subagents stop 1');
    await waitText(/^\S+ #1 Probe · \d+:\d\d\n/);
  }, 180_000);

  it('answers a turn and a /spawn on codex without credentials in one line each, at once, without running codex', async () => {
    // A codex home with no login and no provider of its own, and no CODEX_API_KEY.
    scratch = await mkdtemp(join(tmpdir(), 'codex-home-'));
    real = await startRealCliWorld('codex', undefined, { CODEX_HOME: scratch });
    say('hello');
    const turn = await waitText(/^❌ codex has no credentials/);
    expect(turn.text).toMatch(
      /^❌ codex has no credentials: `\S*codex login status` says Not logged in\. Set CODEX_API_KEY where the bridge starts \(export CODEX_API_KEY=…; codex ignores OPENAI_API_KEY\), or run `codex login --with-api-key` once\.$/,
    );
    say('/spawn --cli codex "count the files"');
    const { telegram } = real.world;
    const refusals = () => telegram.botMessages(CHAT).filter((message) => message.text?.startsWith('❌ codex has no credentials'));
    const [, spawn] = await telegram.waitFor(() => refusals().length === 2 && refusals(), 60_000);
    expect(spawn!.text).toBe(turn.text);
    // Nothing sat "working", no run was started: the model API was never asked.
    expect(telegram.botMessages(CHAT).filter((message) => /working|#1/.test(message.text ?? ''))).toEqual([]);
    expect(real.mock.modelRequests).toEqual([]);
  });
});
