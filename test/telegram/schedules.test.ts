import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, ownerIn, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Schedules: /every, /at and /schedules, fired by the bridge as a real process through the fake
// Bot API; a schedule queues behind a person's turn, and one missed while the bridge was down
// fires once at the start, late.
let world: TelegramWorld;
const BOB = 222;
// Bob is an admin: a chat's schedules are its admins' to make.
beforeAll(async () => (world = await startTelegramWorld({ BRIDGE_TZ: 'Europe/Berlin', BRIDGE_ALLOWED_USERS: `${OWNER}`, BRIDGE_ADMINS: `${BOB}` })), 60_000);
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

  it('does nothing for someone no longer allowed, says so once, and pauses; the same for what the agent scheduled in their turn', async () => {
    const c = chat();
    const bob = (text: string) => world.telegram.sendText({ chatId: c.id, userId: BOB, text, chatType: 'group', firstName: 'Bob' });
    // In a turn of Bob's, the agent sets itself a follow-up through its schedule tool.
    bob('wait-for:bobs-turn-done say:bobs-turn');
    const bobsTurn = async () => (await world.cli.invocations()).find((r) => r.prompt.includes('say:bobs-turn'));
    await expect.poll(bobsTurn, { timeout: 20_000 }).toBeDefined();
    const turn = (await bobsTurn())!;
    const bridge = JSON.parse(await readFile(turn.argv[turn.argv.indexOf('--mcp-config') + 1]!, 'utf8')).mcpServers.bridge as {
      url: string;
      headers: Record<string, string>;
    };
    const tools = new Client({ name: 'agent', version: '1.0.0' });
    await tools.connect(new StreamableHTTPClientTransport(new URL(bridge.url), { requestInit: { headers: bridge.headers } }));
    const made = await tools.callTool({ name: 'schedule', arguments: { when: 'in 8s', prompt: 'say:agents-errand' } });
    const due = Date.now() + 8_000;
    await tools.close();
    expect((made.content as { text: string }[])[0]!.text).toMatch(/^Scheduled #1/);
    bob('/every 10s say:bobs-errand');
    await c.waitText(/^⏰ Scheduled #2 .* by Bob/);
    // Both come due while the bridge is down; the operator takes Bob out meanwhile.
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    const saved = JSON.parse(await readFile(join(world.dataDir, 'schedules.json'), 'utf8')) as {
      schedules: Record<string, { number: number; chatKey: string; by: unknown }>;
    };
    expect(Object.values(saved.schedules).find((s) => s.number === 1 && s.chatKey === `telegram:${c.id}`)!.by).toEqual({
      kind: 'agent',
      for: { id: String(BOB), key: `telegram:${BOB}` },
    });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()) + 500));
    delete world.env.BRIDGE_ADMINS;
    await world.restart();
    await writeFile(join(turn.cwd, 'bobs-turn-done'), '');
    await c.waitText(new RegExp(`^⏰ Schedule #1 .*did not run: ${BOB}, in whose turn the agent made it, is no longer allowed here\\. It is paused`), 30_000);
    await c.waitText(/^⏰ Schedule #2 .*did not run: Bob, who made it, is no longer allowed here\. It is paused: \/schedules delete 2 removes it\./, 30_000);
    // Past the next firing of #2: nothing more is said.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    c.say('/schedules');
    const listed = await c.waitText(/^⏰ 2 schedules/);
    expect(listed.text?.split('\n').filter((line) => line.includes('⏸ paused'))).toHaveLength(2);
    expect(c.texts().filter((t) => /did not run/.test(t))).toHaveLength(2);
    expect(c.texts().some((t) => /^(bobs-errand|agents-errand)/.test(t))).toBe(false);
    expect((await world.cli.invocations()).some((r) => /bobs-errand|agents-errand/.test(r.prompt))).toBe(false);
  });
});
