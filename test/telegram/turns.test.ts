import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownText, OWNER, STRANGER, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';
import { alive } from '../support/fake-cli.ts';

// The bridge as a real process, driven through the fake Bot API by the real grammY client.
let world: TelegramWorld;
beforeAll(async () => (world = await startTelegramWorld()));
afterAll(() => world.stop());

/** Each test gets its own group chat, so they do not share sessions. */
let nextChat = -200;
const newChat = () => nextChat--;

function say(chatId: number, text: string, extra: { userId?: number; threadId?: number; replyTo?: number } = {}) {
  const chatType = String(chatId).startsWith('-100') ? 'supergroup' : 'group';
  return world.telegram.sendText({
    chatId,
    userId: extra.userId ?? OWNER,
    text,
    chatType,
    firstName: 'Ada',
    ...(extra.threadId ? { threadId: extra.threadId } : {}),
    ...(extra.replyTo ? { replyTo: extra.replyTo } : {}),
  });
}

const callbackData = (button: unknown) => (button as { callback_data: string }).callback_data;

const botTexts = (chatId: number, threadId?: number) => world.telegram.botMessages(chatId, threadId).map(shownText);

async function answer(chatId: number, pattern: RegExp, threadId?: number) {
  return world.telegram.waitFor(() => world.telegram.botMessages(chatId, threadId).find((m) => pattern.test(shownText(m))), 20_000);
}

describe('the Telegram bridge', () => {
  it('pushes the commands of manifest.json with setMyCommands', async () => {
    const manifest = JSON.parse(await readFile(new URL('../../manifest.json', import.meta.url), 'utf8')) as {
      commands: { name: string; description: string }[];
    };
    expect(manifest.commands.map((c) => c.name)).toContain('handoff');
    // The bridge sets them as it starts, beside its first poll: on a loaded machine, after it is up.
    await world.telegram.waitFor(() => world.telegram.commands.length > 0);
    expect(world.telegram.commands).toEqual(manifest.commands.map((c) => expect.objectContaining({ command: c.name, description: c.description }) as unknown));
  });

  it('answers a quick turn in place of its progress message: a reply, with the stats last', async () => {
    const chat = newChat();
    const question = say(chat, 'hello there tools:2');
    const reply = await answer(chat, /^echo: hello there tools:2 \(turn 1\)$/);
    expect(reply.replyToMessageId).toBe(question.message_id);
    const firstVersion = world.telegram.callsTo('sendMessage').find((c) => c.params.chat_id === chat)!;
    expect(firstVersion.params.text).toMatch(/^<b>⚙️ claude · working · 0:0\d<\/b>/);
    expect(JSON.stringify(firstVersion.params.reply_markup)).toContain('⏹ Stop');
    expect(world.telegram.botMessages(chat)).toHaveLength(1); // the progress message became the answer
    expect(reply.text).toMatch(/\n\n✅ 0:0\d · 2 steps · 10 in \/ 5 out · \$0\.0010 · 📁 /);
    expect(reply.buttons).toEqual([]);
    const calls = world.telegram.calls.filter((c) => c.params.chat_id === chat).map((c) => c.method);
    expect(calls[0]).toBe('sendMessage');
    expect(calls.slice(1).every((method) => method === 'editMessageText')).toBe(true);
  });

  it('refuses a stranger, showing their user id, and runs nothing for them', async () => {
    const chat = newChat();
    const before = (await world.cli.invocations()).length;
    say(chat, 'run rm -rf /', { userId: STRANGER });
    const refusal = await answer(chat, /not allowed/);
    expect(refusal.text).toContain(String(STRANGER));
    const other = STRANGER + 1;
    world.telegram.sendText({ chatId: other, userId: other, text: '/status' });
    await answer(other, /not allowed/);
    expect((await world.cli.invocations()).length).toBe(before);
  });

  it('refuses a stranger once, however much they post, and never makes the members wait behind it', async () => {
    const chat = newChat();
    const stranger = STRANGER + 2;
    // The refusal never gets an answer from Telegram (a flood limit, say): the chat goes on regardless.
    world.telegram.failNext('sendMessage', { hang: true }, { chatId: chat, text: /not allowed/ });
    for (let i = 0; i < 30; i++) say(chat, `spam ${i}`, { userId: stranger });
    say(chat, 'say:members-first');
    await answer(chat, /^members-first/);
    const refusals = world.telegram.callsTo('sendMessage').filter((c) => c.params.chat_id === chat && /not allowed/.test(String(c.params.text)));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.status).toBeUndefined(); // still in flight
  });

  it('takes a message that starts with a dash as the prompt, never as an option of the CLI', async () => {
    const chat = newChat();
    say(chat, '- fix the list item');
    await answer(chat, /^echo: - fix the list item/);
  });

  it('refuses a stranger pressing a button', async () => {
    const chat = newChat();
    say(chat, 'sleep:1.5');
    const progress = await world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => m.buttons.length), 10_000);
    world.telegram.pressButton({ chatId: chat, messageId: progress.messageId, data: callbackData(progress.buttons[0]), userId: STRANGER });
    const answerCall = await world.telegram.waitFor(() => world.telegram.callbackAnswers.find((a) => a.chatId === chat));
    expect(answerCall).toMatchObject({ showAlert: true, text: expect.stringContaining(String(STRANGER)) });
    await answer(chat, /^echo: sleep:1.5/); // the turn went on
  });

  it('queues messages sent during a turn, in order, and says so, in a chat set to /busy queue', async () => {
    const chat = newChat();
    say(chat, '/busy queue');
    await answer(chat, /^📨 Busy mode: queue: a message sent while the agent works waits, and runs as the next turn\.$/);
    say(chat, 'sleep:1 first');
    await world.telegram.waitFor(() => world.telegram.botMessages(chat).length > 1);
    say(chat, 'second');
    say(chat, 'third');
    await answer(chat, /Queued \(1st in line\)/);
    await answer(chat, /Queued \(2nd in line\)/);
    await answer(chat, /^echo: third \(turn 3\)$/);
    const answers = botTexts(chat).filter((t) => t.startsWith('echo:'));
    expect(answers).toEqual(['echo: sleep:1 first (turn 1)', 'echo: second (turn 2)', 'echo: third (turn 3)']);
  });

  it('keeps progress edits bounded however chatty the CLI is', async () => {
    const chat = newChat();
    say(chat, 'tools:300 sleep:1');
    const progress = await answer(chat, /^echo: tools:300/);
    const edits = world.telegram.callsTo('editMessageText').filter((c) => c.params.chat_id === chat);
    // At most one edit a second while it ran, plus the final one: bounded by time, not by 300 events.
    const sent = world.telegram.callsTo('sendMessage').find((c) => c.params.chat_id === chat)!;
    const seconds = (edits.at(-1)!.time - sent.time) / 1000;
    expect(edits.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect(edits.length).toBeLessThan(10);
    const final = world.telegram.message(chat, progress.messageId)!;
    expect(final.text).toContain(' · 300 steps · '); // its stats, under the answer that took its place
    const shownSteps = final.history.map((version) => version.content.text ?? '').filter((text) => text.includes('earlier steps'));
    expect(shownSteps.every((text) => text.length < 4096 && /^… \d+ earlier steps$/m.test(text))).toBe(true);
  });

  it('splits a long answer into messages at paragraph boundaries', async () => {
    const chat = newChat();
    say(chat, 'long:9000');
    await world.telegram.waitFor(() => botTexts(chat).filter((t) => t.startsWith('Paragraph')).length >= 3, 20_000);
    const parts = world.telegram.botMessages(chat).filter((m) => m.text?.startsWith('Paragraph'));
    for (const part of parts) {
      expect(part.text!.length).toBeLessThanOrEqual(4096);
      expect(part.entities.some((e) => e.type === 'bold')).toBe(true);
      expect(part.text).toMatch(/code_\d+$/); // cut between paragraphs, not inside one
    }
    const numbers = parts.flatMap((p) => [...p.text!.matchAll(/Paragraph (\d+)\./g)].map((m) => Number(m[1])));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  it('sends a very long answer as a document with a preview', async () => {
    const chat = newChat();
    say(chat, 'long:30000');
    const doc = await world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => m.document), 20_000);
    expect(doc.document!.fileName).toBe('answer.md');
    const content = doc.document!.bytes.toString('utf8');
    expect(content.length).toBeGreaterThan(30_000);
    expect(content.startsWith('**Paragraph 1.**')).toBe(true);
    expect(doc.caption).toContain('Paragraph 1.');
    expect(doc.caption).toMatch(/Full answer \([\d,]+ characters\) attached/);
  });

  it('falls back to plain text when Telegram rejects the formatting', async () => {
    const chat = newChat();
    world.telegram.failNext(
      'sendMessage',
      { code: 400, description: 'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 0' },
      { chatId: chat },
    );
    say(chat, 'say:plain-fallback');
    // The rejected one was the progress message; it arrives as plain text and the turn goes on.
    await answer(chat, /^plain-fallback$/);
    const [rejected, resent] = world.telegram.callsTo('sendMessage').filter((c) => c.params.chat_id === chat);
    expect(rejected).toMatchObject({ status: 400, injected: true, params: { parse_mode: 'HTML' } });
    expect(resent!.status).toBe(200);
    expect(resent!.params.parse_mode).toBeUndefined();
    expect(resent!.params.text).toMatch(/^⚙️ claude · working/);
  });

  it('rides out a 429 with retry_after: the answer arrives once', async () => {
    const chat = newChat();
    say(chat, 'say:after-rate-limit');
    await world.telegram.waitFor(() => world.telegram.botMessages(chat).length > 0);
    world.telegram.failNext('editMessageText', { code: 429, retryAfter: 1 }, { chatId: chat });
    await answer(chat, /^after-rate-limit$/);
    await new Promise((r) => setTimeout(r, 300));
    expect(botTexts(chat).filter((t) => t === 'after-rate-limit')).toHaveLength(1);
  });

  it('the Stop button ends the turn and what it ran; the CLI and its session stay, and the next message continues', async () => {
    const chat = newChat();
    say(chat, 'grandchild hang');
    const progress = await world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => m.buttons.length), 10_000);
    let invocation: { pid: number; grandchild?: number } | undefined;
    await expect.poll(async () => (invocation = (await world.cli.invocations()).find((c) => c.prompt === 'grandchild hang'))).toBeTruthy();
    world.telegram.pressButton({ chatId: chat, messageId: progress.messageId, data: callbackData(progress.buttons[0]), userId: OWNER });
    await world.telegram.waitFor(() => /⏹ claude · stopped/.test(world.telegram.message(chat, progress.messageId)!.text ?? ''), 10_000);
    expect(world.telegram.message(chat, progress.messageId)!.text).toContain('stopped by Ada');
    expect(alive(invocation!.pid)).toBe(true);
    say(chat, 'what now');
    await answer(chat, /^echo: what now \(turn 3\)$/); // the stopped turn is in the session's history
    const next = (await world.cli.invocations()).find((c) => c.prompt === 'what now')!;
    expect(next.pid).toBe(invocation!.pid);
  });

  it('a CLI that ignores its interrupt is stopped after 5 s, process group and all, and the next message resumes the session', async () => {
    const chat = newChat();
    say(chat, 'ignore-interrupt grandchild hang');
    const progress = await world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => m.buttons.length), 10_000);
    let invocation: { pid: number; session: string } | undefined;
    await expect.poll(async () => (invocation = (await world.cli.invocations()).find((c) => c.prompt.startsWith('ignore-interrupt')))).toBeTruthy();
    world.telegram.pressButton({ chatId: chat, messageId: progress.messageId, data: callbackData(progress.buttons[0]), userId: OWNER });
    await world.telegram.waitFor(() => /⏹ claude · stopped/.test(world.telegram.message(chat, progress.messageId)!.text ?? ''), 20_000);
    expect(alive(invocation!.pid)).toBe(false);
    say(chat, 'and now');
    await answer(chat, /^echo: and now \(turn 2\)$/);
    const next = (await world.cli.invocations()).find((c) => c.prompt === 'and now')!;
    expect(next.pid).not.toBe(invocation!.pid);
    expect(next.resume).toBe(invocation!.session);
  });

  it('reports a crashing CLI clearly', async () => {
    const chat = newChat();
    say(chat, 'crash:7');
    const failure = await answer(chat, /^❌ claude exited/);
    expect(failure.text).toBe('❌ claude exited with code 7: fatal: the fake agent crashed on purpose');
  });

  it('/status, /new and /cli', async () => {
    const chat = newChat();
    say(chat, 'one');
    await answer(chat, /^echo: one \(turn 1\)/);
    say(chat, '/status');
    const status = await answer(chat, /^Status/);
    expect(status.text).toMatch(/CLI: claude/);
    expect(status.text).toMatch(/Session: [0-9a-f-]{36}/);
    expect(status.text).toContain(`Working directory: ${world.workdir}`);
    expect(status.text).toContain('Queued messages: 0');
    say(chat, '/new');
    await answer(chat, /Fresh claude session/);
    say(chat, 'two');
    await answer(chat, /^echo: two \(turn 1\)/); // a new session: turn 1 again
    say(chat, '/cli');
    await answer(chat, /This chat uses claude\. Available: claude, codex, copilot, droid, gemini, opencode, qwen/);
    say(chat, '/cli cobol');
    const refusal = await answer(chat, /Unknown CLI "cobol"/);
    expect(refusal.text).toContain('Usage: /cli <name>');
  });

  it("/status adds the bridge's health: uptime, Telegram's round trip, what runs across chats, the data's size", async () => {
    const busy = newChat();
    say(busy, 'hang please');
    await world.telegram.waitFor(() => botTexts(busy).find((t) => /claude/.test(t)), 20_000); // its progress: the turn runs
    const chat = newChat();
    say(chat, '/status');
    const status = await answer(chat, /^Status/);
    expect(status.text).toMatch(new RegExp(`^Bridge: up \\d+ (s|min), pid ${world.bridge.pid}, Node 20\\.`, 'm'));
    expect(status.text).toMatch(/^Telegram round trip: \d+ ms$/m);
    expect(status.text).toMatch(/^All chats: 1 turn running, 0 messages waiting; subagents 0 running, 0 queued$/m);
    expect(status.text).toMatch(new RegExp(`^Data: ${world.dataDir}: \\d+ KB$`, 'm'));
    say(busy, '/stop');
    await answer(busy, /Stopped/);
  });

  it('answers unknown commands and ignores commands for other bots', async () => {
    const chat = newChat();
    say(chat, '/frobnicate');
    await answer(chat, /Unknown command \/frobnicate\. Try \/help\./);
    say(chat, '/status@some_other_bot');
    // Another bot's command is not this bridge's at all: a stranger is not refused for it either.
    say(chat, '/status@some_other_bot', { userId: STRANGER });
    say(chat, '/help@bridge_test_bot');
    await answer(chat, /Commands/);
    expect(botTexts(chat).some((t) => t.startsWith('Status') || /not allowed/.test(t))).toBe(false);
    say(chat, '/help@BRIDGE_TEST_BOT');
    await world.telegram.waitFor(() => botTexts(chat).filter((t) => /Commands/.test(t)).length === 2, 20_000);
    expect(botTexts(chat).some((t) => /not allowed/.test(t))).toBe(false);
  });

  it('keeps one session per forum topic', async () => {
    const forum = -1009000000001;
    say(forum, 'in topic A', { threadId: 1000 });
    const a = await world.telegram.waitFor(() => world.telegram.messages(forum).find((m) => !m.fromBot && m.text === 'in topic A'));
    say(forum, 'in topic B', { threadId: 2000 });
    const b = await world.telegram.waitFor(() => world.telegram.messages(forum).find((m) => !m.fromBot && m.text === 'in topic B'));
    expect(a.threadId).not.toBe(b.threadId);
    await answer(forum, /^echo: in topic A \(turn 1\)$/, a.threadId);
    await answer(forum, /^echo: in topic B \(turn 1\)$/, b.threadId);
    say(forum, 'again A', { threadId: a.threadId });
    await answer(forum, /^echo: again A \(turn 2\)$/, a.threadId);
  });
});
