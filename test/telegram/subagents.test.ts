import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// /spawn and /subagents end to end: a real bridge process, the fake Bot API, the fake CLI.
let world: TelegramWorld;
beforeAll(async () => (world = await startTelegramWorld({ SUBAGENTS_MAX_CONCURRENT: '2', SUBAGENTS_MAX_QUEUED: '1' })));
afterAll(() => world.stop());

let nextChat = -400;
const newChat = () => nextChat--;
const say = (chatId: number, text: string, replyTo?: number) =>
  world.telegram.sendText({ chatId, userId: OWNER, text, chatType: 'group', firstName: 'Ada', ...(replyTo ? { replyTo } : {}) });
const texts = (chatId: number) => world.telegram.botMessages(chatId).map((m) => m.text ?? m.caption ?? '');
const waitText = (chatId: number, pattern: RegExp, timeout = 20_000) =>
  world.telegram.waitFor(() => world.telegram.botMessages(chatId).find((m) => pattern.test(m.text ?? m.caption ?? '')), timeout);
const callbackData = (button: unknown) => (button as { callback_data: string }).callback_data;

describe('/spawn', () => {
  it('starts a run, answers at once with its number, id and a Stop button, then announces once', async () => {
    const chat = newChat();
    say(chat, '/spawn --label Research "sleep:0.5 say:found-it"');
    const started = await waitText(chat, /^🚀 #1 started: Research · claude · id [\w-]{10}$/m);
    expect(started.buttons.map((b) => b.text)).toEqual(['⏹ Stop #1']);
    const done = await waitText(chat, /^✅ #1 Research · 0:0\d/);
    expect(done.text).toMatch(new RegExp(`\\n\\nfound-it\\n\\nclaude · 1 turn · 10 in / 5 out · \\$0\\.0010 · 📁 ${world.workdir} · [\\w-]{10}$`));
    await new Promise((r) => setTimeout(r, 300));
    expect(texts(chat).filter((t) => t.startsWith('✅'))).toHaveLength(1);
  });

  it('takes the task as the rest of the message, and a replied-to message as context', async () => {
    const chat = newChat();
    const original = say(chat, 'the bug is in parser.ts line 42');
    await waitText(chat, /^echo: the bug is in parser\.ts/);
    say(chat, '/spawn fix it\nplease, carefully', original.message_id);
    await waitText(chat, /^✅ #1/);
    const call = (await world.cli.invocations()).find((c) => c.prompt.startsWith('fix it'));
    expect(call!.prompt).toBe('fix it\nplease, carefully\n\nContext: the message this request replied to:\n"""\nthe bug is in parser.ts line 42\n"""');
  });

  it('queues past the limit with the position, and refuses past the queue', async () => {
    const chat = newChat();
    // The first two hold their slots until the test lets them go, however slowly /spawn "d" comes.
    say(chat, '/spawn "wait-for:queue-go say:a"');
    say(chat, '/spawn "wait-for:queue-go say:b"');
    say(chat, '/spawn "say:c"');
    say(chat, '/spawn "say:d"');
    await waitText(chat, /^⏳ #3 queued \(1 in line\)/);
    const refusal = await waitText(chat, /Limit reached: 2 running and 1 queued/);
    expect(refusal.text).toContain('Usage: /spawn');
    await writeFile(join(world.workdir, 'queue-go'), '');
    await waitText(chat, /^✅ #3 /);
  });

  it('refuses bad flags, unknown CLIs and empty or unterminated tasks, starting nothing', async () => {
    const chat = newChat();
    const before = (await world.cli.invocations()).length;
    for (const [input, message] of [
      ['/spawn --colour red "x"', /Unknown flag --colour/],
      ['/spawn --cli cobol "x"', /Unknown CLI "cobol"\. Available: claude, codex, copilot, droid, gemini, opencode, qwen\./],
      ['/spawn', /The task is empty/],
      ['/spawn "never closed', /The task's quote is never closed/],
      ['/spawn --timeout soon "x"', /--timeout takes a whole number of seconds/],
    ] as const) {
      say(chat, input);
      await waitText(chat, message);
    }
    expect((await world.cli.invocations()).length).toBe(before);
  });
});

describe('/subagents', () => {
  it("lists this chat's runs only, with status, CLI and runtime", async () => {
    const chat = newChat();
    const other = newChat();
    say(other, '/spawn --label Elsewhere "say:x"');
    await waitText(other, /^✅ #1 Elsewhere/);
    say(chat, '/spawn --label Slow "sleep:2"');
    await waitText(chat, /^🚀 #1/);
    say(chat, '/subagents');
    const list = await waitText(chat, /^Subagents\n/);
    expect(list.text).toMatch(/#1 Slow · ⚙️ running · claude · 0:0\d · [\w-]{10}/);
    expect(list.text).not.toContain('Elsewhere');
  });

  it("log of a run that ended without tools says so and shows its result, not 'No steps yet'", async () => {
    const chat = newChat();
    say(chat, '/spawn --label Quick "say:quick-result"');
    await waitText(chat, /^✅ #1 Quick/);
    say(chat, '/subagents log 1');
    const log = await waitText(chat, /^📜 #1 Quick/);
    expect(log.text).toContain('No tool calls: it worked without tools.');
    expect(log.text).toContain('Result\nquick-result');
    expect(log.text).not.toContain('No steps yet');
  });

  it('log, info and stop by # and by id; the Stop button; and the one announcement of a stop', async () => {
    const chat = newChat();
    say(chat, '/spawn --label Busy "tools:3 hang"');
    const started = await waitText(chat, /^🚀 #1/);
    const runId = /id ([\w-]+)/.exec(started.text!)![1]!;
    const logFile = join(world.dataDir, 'runs', `${runId}.jsonl`);
    await expect.poll(async () => (await readFile(logFile, 'utf8').catch(() => '')).includes('"tool_use_id":"toolu_fake_3"')).toBe(true);
    say(chat, '/subagents log 1 2');
    const log = await waitText(chat, /^📜 #1 Busy/);
    expect(log.text).toContain('… 1 earlier steps\n✓ Bash echo step 2\n✓ Bash echo step 3');
    say(chat, `/subagents info ${runId}`);
    const info = await waitText(chat, /^#1 Busy\nrunId: /);
    expect(info.text).toContain(`\nrunId: ${runId}\n`);
    expect(info.text).toContain('\nstatus: running\n');
    expect(info.text).toContain(`\nrequesterKey: telegram:${chat}\n`);
    expect(info.text).toMatch(/\ncreatedAt: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \((just now|\d+ s ago)\)\n/);
    world.telegram.pressButton({ chatId: chat, messageId: started.messageId, data: callbackData(started.buttons[0]), userId: OWNER });
    const stopped = await waitText(chat, /^❌ #1 Busy/);
    expect(stopped.text).toContain('Stopped: stopped by Ada');
    // The list says it as the announcement did.
    say(chat, '/subagents');
    const list = await waitText(chat, /^Subagents\n/);
    expect(list.text).toMatch(/#1 Busy · ❌ stopped · claude · /);
    say(chat, '/subagents stop 1');
    await waitText(chat, /#1 has already ended \(stopped\)/);
    say(chat, '/subagents stop #9');
    await waitText(chat, /No run "#9" in this chat/);
    say(chat, '/subagents frob');
    await waitText(chat, /Unknown subcommand "frob"/);
    expect(texts(chat).filter((t) => t.startsWith('❌ #1'))).toHaveLength(1);
  });

  it("/stop stops the main turn and every subagent of this chat, and no other chat's", async () => {
    const chat = newChat();
    const other = newChat();
    say(other, '/spawn --label Theirs "sleep:1.5 say:theirs-done"');
    await waitText(other, /^🚀 #1/);
    say(chat, '/spawn "hang"');
    say(chat, '/spawn "hang"');
    await waitText(chat, /^🚀 #2/);
    say(chat, 'hang as the main turn');
    await world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => /working/.test(m.text ?? '')));
    say(chat, '/stop');
    const report = await waitText(chat, /^⏹ Stopped the turn;/);
    expect(report.text).toBe('⏹ Stopped the turn; the session goes on with your next message.\n⏹ Stopped 2 subagents.');
    await waitText(chat, /^❌ #1/);
    await waitText(chat, /^❌ #2/);
    await waitText(other, /^✅ #1 Theirs/);
  });
});

describe('ids every object inherits', () => {
  it('are unknown runs, orchestrations, schedules and agents in the chat commands, never an internal error', async () => {
    const chat = newChat();
    const asked: string[] = [];
    const expected: string[] = [];
    for (const id of ['__proto__', 'constructor']) {
      for (const [command, answer] of [
        [`/subagents info ${id}`, `⚠️ No run "${id}" in this chat. /subagents lists them.`],
        [`/subagents stop ${id}`, `⚠️ No run "${id}" in this chat. /subagents lists them.`],
        [`/diff ${id}`, `⚠️ No run "${id}" in this chat. /subagents lists them.`],
        [`/orchestrations stop ${id}`, `⚠️ No orchestration "${id}" in this chat.`],
        [`/schedules delete ${id}`, `⚠️ This chat has no schedule #${id}. /schedules lists them.`],
      ]) {
        const before = world.telegram.botMessages(chat).length;
        say(chat, command!);
        const reply = await world.telegram.waitFor(() => world.telegram.botMessages(chat)[before], 20_000);
        asked.push(`${command} → ${reply.text?.split('\n')[0]}`);
        expected.push(`${command} → ${answer}`);
      }
    }
    expect(asked).toEqual(expected);
    // A Stop button's data naming such an id, as a forged client may send it.
    const message = world.telegram.botMessages(chat).at(-1)!;
    for (const id of ['__proto__', 'constructor']) {
      const query = world.telegram.forgeButtonPress({ chatId: chat, userId: OWNER, messageId: message.messageId, data: `sa:${id}` });
      const answer = await world.telegram.waitFor(() => world.telegram.callbackAnswers.find((a) => a.callbackQueryId === query.id), 20_000);
      expect(answer.text).toBe('No such run in this chat.');
    }
  });
});
