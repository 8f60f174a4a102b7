import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, ownerIn, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Schedules: /every, /at and /schedules, fired by the bridge as a real process through the fake
// Bot API; a schedule queues behind a person's turn, and one missed while the bridge was down
// fires once at the start, late.
let world: TelegramWorld;
const BOB = 222;
beforeAll(async () => (world = await startTelegramWorld({ BRIDGE_TZ: 'Europe/Berlin', BRIDGE_ALLOWED_USERS: `${OWNER},${BOB}` })), 60_000);
afterAll(() => world.stop());

let next = -5100;
const chat = () => {
  const id = next--;
  return { id, ...ownerIn(() => world, id, 30_000), texts: () => world.telegram.botMessages(id).map(shownText) };
};

describe('schedules', () => {
  it('/at fires once, as a turn the chat sees under the schedule', async () => {
    const c = chat();
    c.say('/at in 1s say:one-shot');
    expect((await c.waitText(/^⏰ Scheduled #1/)).text).toMatch(/once, .* · a turn · by Ada/);
    const shown = await c.waitText(/^⏰ Schedule #1: say:one-shot/);
    const answer = await c.waitText(/^one-shot/);
    expect(answer.replyToMessageId).toBe(shown.messageId);
    c.say('/schedules');
    expect((await c.waitText(/^⏰ 1 schedule/)).text).toMatch(/#1 “say:one-shot”: once, .* · done/);
  });

  it('/every repeats, and pause, resume and delete take its number', async () => {
    const c = chat();
    c.say('/every 10s say:tick');
    expect((await c.waitText(/^⏰ Scheduled #1/)).text).toMatch(/every 10s · next /);
    await c.waitText(/^tick/, 20_000);
    c.say('/schedules pause 1');
    await c.waitText(/^⏸ Paused: #1/);
    c.say('/schedules');
    expect((await c.waitText(/^⏰ 1 schedule/)).text).toContain('⏸ paused');
    c.say('/schedules resume #1');
    await c.waitText(/^▶️ Resumed: #1 .* every 10s · next /);
    c.say('/schedules delete 1');
    await c.waitText(/^🗑 Deleted #1/);
    c.say('/schedules delete 1');
    await c.waitText(/This chat has no schedule #1/);
  });

  it('refuses what fires too often, words that are no time, and a bad subcommand, saying how', async () => {
    const c = chat();
    c.say('/every 5s say:spam');
    await c.waitText(/too often: a schedule fires at most every 10 s/);
    c.say('/at sometime say:x');
    await c.waitText(/is not a time: use in 20m, 14:30/);
    c.say('/schedules stop 1');
    await c.waitText(/"stop" is not list, pause, resume or delete/);
    c.say('/every 30m --spawn --cli nonexistent "task"');
    await c.waitText(/There is no CLI "nonexistent": claude/);
    expect(c.texts().some((t) => t.startsWith('⏰ Scheduled'))).toBe(false);
  });

  it("queues behind a person's turn, never steering into it", async () => {
    const c = chat();
    c.say('wait-for:go-queue tools:1 say:person-done');
    await expect.poll(() => world.cli.invocations().then((runs) => runs.some((r) => r.prompt.startsWith('wait-for:go-queue'))), { timeout: 20_000 }).toBe(true);
    c.say('/at in 1s say:scheduled-after');
    await c.waitText(/^⏰ Schedule #1: say:scheduled-after/);
    await writeFile(join(world.workdir, 'go-queue'), '');
    const person = await c.waitText(/^person-done/);
    expect(person.text).not.toContain('heard:');
    await c.waitText(/^scheduled-after/);
    const order = c.texts().filter((t) => /^(person-done|scheduled-after)/.test(t));
    expect(order.map((t) => t.split(/\s/)[0])).toEqual(['person-done', 'scheduled-after']);
  });

  it('with --spawn makes a run, announced in the chat', async () => {
    const c = chat();
    c.say('/at in 1s --spawn --label Nightly "say:night-run"');
    await c.waitText(/^🚀 #\d+ started: Nightly/);
    await c.waitText(/^✅ #\d+ Nightly/);
  });

  it('keeps schedules across a restart; one that came due while the bridge was down fires once at the start, late', async () => {
    const c = chat();
    c.say('/at in 3s say:missed-it');
    await c.waitText(/^⏰ Scheduled #1/);
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await new Promise((resolve) => setTimeout(resolve, 3500)); // the bridge is down when it comes due
    await world.restart();
    const late = await c.waitText(/^⏰ Schedule #1 \(late: it came due while the bridge was down\)/);
    expect((await c.waitText(/^missed-it/)).replyToMessageId).toBe(late.messageId);
    c.say('/schedules');
    await c.waitText(/^⏰ 1 schedule/);
    expect(c.texts().filter((t) => /^⏰ Schedule #1/.test(t))).toHaveLength(1);
  });

  it('does nothing for someone no longer allowed, and says so', async () => {
    const c = chat();
    world.telegram.sendText({ chatId: c.id, userId: BOB, text: '/at in 2s say:bobs-errand', chatType: 'group', firstName: 'Bob' });
    await c.waitText(/^⏰ Scheduled #1 .* by Bob/);
    world.env.BRIDGE_ALLOWED_USERS = String(OWNER); // the operator takes Bob out, and restarts
    await world.restart();
    await c.waitText(/^⏰ Schedule #1 .*did not run: Bob, who made it, is no longer in BRIDGE_ALLOWED_USERS\./);
    expect(c.texts().some((t) => t.startsWith('bobs-errand'))).toBe(false);
    expect((await world.cli.invocations()).some((r) => r.prompt.includes('bobs-errand'))).toBe(false);
  });
});
