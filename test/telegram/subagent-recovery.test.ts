import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive } from '../support/fake-cli.ts';
import { startTelegramWorld, ownerIn, type TelegramWorld } from '../support/telegram-world.ts';

// Announcements are never lost nor doubled: not by Telegram faults, not by a killed bridge.
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

const CHAT = -500;
const { say } = ownerIn(() => world!, CHAT);
const announcements = () =>
  world!.telegram
    .botMessages(CHAT)
    .map((m) => m.text ?? '')
    .filter((t) => /^[✅❌] #\d+/.test(t));
const byRun = () => {
  const counts = new Map<number, number>();
  for (const text of announcements()) {
    const n = Number(/^[✅❌] #(\d+)/.exec(text)![1]);
    counts.set(n, (counts.get(n) ?? 0) + 1);
  }
  return counts;
};

describe('subagent announcements across faults and restarts', () => {
  it.each([
    ['on', /^✅ #2 A[^]*echo: The bridge that runs you restarted while you were working on your task/, /^✅ #3 B[^]*echo: The bridge that runs you restarted/],
    ['off', /^❌ #2 A[^]*interrupted by a restart of the bridge/, /^❌ #3 B[^]*interrupted by a restart of the bridge/],
  ])('SIGKILL with runs in flight (resume %s): after a restart every run is announced exactly once', async (resume, runA, runB) => {
    world = await startTelegramWorld({ SUBAGENTS_MAX_CONCURRENT: '2', BRIDGE_RESUME_INTERRUPTED: resume });
    say('/spawn --label Quick "say:quick-done"');
    await world.telegram.waitFor(() => announcements().some((t) => t.includes('quick-done')), 15_000);
    say('/spawn --label A "tools:2 hang"');
    say('/spawn --label B "grandchild hang"');
    say('/spawn --label Waiting "say:waited"');
    await world.telegram.waitFor(() => world!.telegram.botMessages(CHAT).find((m) => /^⏳ #4 queued/.test(m.text ?? '')), 15_000);
    await expect.poll(async () => (await world!.cli.invocations()).length, { timeout: 15_000 }).toBe(3);
    const clis = (await world.cli.invocations()).slice(1);
    // Killed once both runs' CLIs have named their sessions (a run killed before that starts again from its task).
    const sessions = async () =>
      Object.values(JSON.parse(await readFile(join(world!.dataDir, 'subagents.json'), 'utf8')).runs as { childSessionId?: string }[]).filter(
        (run) => run.childSessionId,
      );
    await expect.poll(async () => (await sessions()).length, { timeout: 15_000 }).toBe(3);

    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();

    await world.telegram.waitFor(() => byRun().size === 4, 20_000);
    await new Promise((r) => setTimeout(r, 1000)); // anything doubled would show up by now
    expect([...byRun().entries()].sort()).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 1],
    ]);
    const texts = announcements();
    // Resumed, each in the session its CLI named; or, with resume off, announced as interrupted.
    expect(texts.find((t) => /^[✅❌] #2 A/.test(t))).toMatch(runA);
    expect(texts.find((t) => /^[✅❌] #3 B/.test(t))).toMatch(runB);
    expect(texts.find((t) => t.startsWith('✅ #4 Waiting'))).toContain('waited');
    for (const cli of clis) await expect.poll(() => alive(cli.pid)).toBe(false);
    const resumed = (await world.cli.invocations()).filter((call) => call.resume);
    expect(resumed.map((call) => call.resume).sort()).toEqual(resume === 'on' ? clis.map((cli) => cli.session).sort() : []);
  });

  it('a 429, a 502 and a dropped connection delay an announcement but never lose or double it', async () => {
    world = await startTelegramWorld();
    say('/spawn --label Patient "sleep:0.5 say:made-it"');
    await world.telegram.waitFor(() => world!.telegram.botMessages(CHAT).find((m) => /^🚀 #1/.test(m.text ?? '')));
    world.telegram.failNext('sendMessage', { code: 429, retryAfter: 1 }, { chatId: CHAT });
    world.telegram.failNext('sendMessage', { code: 502, description: 'Bad Gateway' }, { chatId: CHAT });
    world.telegram.failNext('sendMessage', { networkDrop: true }, { chatId: CHAT });
    await world.telegram.waitFor(() => announcements().some((t) => t.includes('made-it')), 40_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(announcements()).toHaveLength(1);
    const attempts = world.telegram.callsTo('sendMessage').filter((c) => c.params.chat_id === CHAT && String(c.params.text).includes('made-it'));
    expect(attempts.map((c) => c.status)).toEqual([429, 502, 0, 200]);
  }, 60_000);

  it('an announcement that failed before a SIGTERM restart is sent after it, once', async () => {
    world = await startTelegramWorld();
    // Every attempt fails until the bridge is restarted.
    world.telegram.failNext('sendMessage', { code: 400, description: 'Bad Request: chat is temporarily read-only' }, { chatId: CHAT, times: 1000 });
    say('/spawn --label Later "say:after-restart"');
    await expect.poll(async () => (await world!.cli.invocations()).length, { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => world!.telegram.callsTo('sendMessage').filter((c) => String(c.params.text).includes('after-restart')).length, { timeout: 15_000 })
      .toBeGreaterThan(0);
    world.bridge.kill('SIGTERM');
    await world.bridge.exited;
    world.telegram.clearFaults();
    await world.restart();
    await world.telegram.waitFor(() => announcements().some((t) => t.includes('after-restart')), 20_000);
    expect(announcements()).toHaveLength(1);
  });
});
