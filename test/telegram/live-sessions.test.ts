import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive } from '../support/fake-cli.ts';
import { OWNER, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// A chat's CLI stays up between turns (the fake speaks Claude Code's stream-json input and
// stdio control channel): messages steer the turn at work, Stop interrupts it and keeps the
// process, the agent's questions and plans come as buttons.
let world: TelegramWorld;
const COLLEAGUE = 222;
beforeAll(async () => (world = await startTelegramWorld({ BRIDGE_ALLOWED_USERS: `${OWNER},${COLLEAGUE}` })));
afterAll(() => world.stop());

let nextChat = -2600;
const newChat = () => nextChat--;
const say = (chat: number, text: string, userId = OWNER) =>
  world.telegram.sendText({ chatId: chat, userId, text, chatType: 'group', firstName: userId === OWNER ? 'Ada' : 'Bob' });
const answer = (chat: number, pattern: RegExp, timeoutMs = 20_000) =>
  world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => pattern.test(shownText(m))), timeoutMs);
const press = (chat: number, message: { messageId: number; buttons: readonly unknown[] }, text: string) => {
  const button = (message.buttons as { text: string; callback_data: string }[]).find((b) => b.text === text);
  if (!button) throw new Error(`no button "${text}" among ${JSON.stringify(message.buttons)}`);
  return world.telegram.pressButton({ chatId: chat, messageId: message.messageId, data: button.callback_data, userId: OWNER });
};
const invocation = async (prompt: string) => (await world.cli.invocations()).find((c) => c.prompt === prompt);
/** Once the CLI has made its first tool call of the turn: it is working, and takes a steer within the turn. */
const working = (chat: number) =>
  world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => m.history.some((v) => /Bash/.test(v.content.text ?? ''))));
/** Once a CLI has started on `prompt` and hangs there. */
const hanging = async (prompt: string) => {
  await expect.poll(async () => (await world.cli.hanging()).includes((await invocation(prompt))?.pid ?? -1)).toBe(true);
};
const progressOf = (chat: number) =>
  world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => /working/.test(m.text ?? '') && m.buttons.length));

describe('a live session', () => {
  it('keeps its CLI between turns: the next message goes to the same process, continuing the session', async () => {
    const chat = newChat();
    say(chat, 'one');
    await answer(chat, /^echo: one \(turn 1\)$/);
    say(chat, 'two');
    await answer(chat, /^echo: two \(turn 2\)$/);
    const [first, second] = [await invocation('one'), await invocation('two')];
    expect(second!.pid).toBe(first!.pid);
    expect(alive(first!.pid)).toBe(true);
    expect(first!.argv).toEqual(expect.arrayContaining(['--input-format', 'stream-json', '--permission-prompt-tool', 'stdio']));
    say(chat, '/status');
    expect((await answer(chat, /^Status\n/)).text).toMatch(/\nCLI process: kept between turns, idle for \d+:\d\d\n/);
  });

  it('steers: a message sent while the agent works goes into its turn, and the progress shows it added', async () => {
    const chat = newChat();
    say(chat, 'tools:10 pace:300 first until-heard');
    const progress = await working(chat);
    const steered = say(chat, 'also check the tests');
    const done = await answer(chat, /^echo: tools:10 pace:300 first/);
    expect(done.text).toContain('heard: also check the tests');
    // The steered message is marked as taken: 👀, its answer being the turn's.
    await world.telegram.waitFor(() => world.telegram.message(chat, steered.message_id)!.botReactions.includes('👀'), 10_000);
    const versions = world.telegram.message(chat, progress.messageId)!.history.map((v) => v.content.text ?? '');
    expect(versions.join('\n---\n')).toContain('➕ added: also check the tests');
    // One turn, one answer, no queue notice.
    expect(world.telegram.botMessages(chat).filter((m) => /^⏳ Queued/.test(m.text ?? ''))).toHaveLength(0);
  });

  it('a file sent with a caption while the agent works steers the turn the same way, its path in the message', async () => {
    const chat = newChat();
    say(chat, 'tools:10 pace:300 file-turn until-heard');
    await working(chat);
    world.telegram.sendFile({
      chatId: chat,
      userId: OWNER,
      chatType: 'group',
      firstName: 'Ada',
      kind: 'document',
      bytes: Buffer.from('a,b\n1,2\n'),
      fileName: 'data.csv',
      caption: 'use this data',
    });
    const done = await answer(chat, /^echo: tools:10 pace:300 file-turn/);
    expect(done.text).toMatch(/heard: use this data[^]*\.bridge\/inbox\/[^ ]*data\.csv/);
    expect(world.telegram.botMessages(chat).filter((m) => /^⏳ Queued/.test(m.text ?? ''))).toHaveLength(0);
  });

  it('a message steered as the turn ends, which the CLI takes as a turn of its own, gets that turn’s answer: every message once, in order', async () => {
    const chat = newChat();
    // The CLI answers its turn the moment the steered message comes, before it reads it: the
    // bridge decided and wrote while the turn was at work, and the message is after the result.
    const first = say(chat, 'end-at-message first');
    await expect.poll(() => invocation('end-at-message first'), { timeout: 20_000 }).toBeDefined();
    const queued = say(chat, 'from bob', COLLEAGUE);
    await answer(chat, /^⏳ Queued \(1st in line\)/);
    const late = say(chat, 'steered late');
    const answers = () => world.telegram.botMessages(chat).filter((m) => /^echo: /.test(shownText(m)));
    await world.telegram.waitFor(() => answers().length >= 3 || undefined);
    // In the chat's order (an answer may take its progress message's place).
    expect(answers().map((m) => [shownText(m), m.replyToMessageId])).toEqual([
      ['echo: end-at-message first (turn 1)', first.message_id],
      ['echo: steered late (turn 2)', late.message_id],
      ['echo: from bob (turn 3)', queued.message_id],
    ]);
    expect((await invocation('steered late'))!.pid).toBe((await invocation('end-at-message first'))!.pid);
  });

  it("in a group, only whoever started the turn steers it: another person's message queues", async () => {
    const chat = newChat();
    say(chat, 'tools:4 pace:400 ada-turn');
    await progressOf(chat);
    say(chat, 'from bob', COLLEAGUE);
    await answer(chat, /^⏳ Queued \(1st in line\)/);
    const first = await answer(chat, /^echo: tools:4 pace:400 ada-turn/);
    expect(first.text).not.toContain('from bob');
    await answer(chat, /^echo: from bob \(turn 2\)$/);
  });

  it('/busy interrupt stops the turn at work and takes the message next; the session goes on', async () => {
    const chat = newChat();
    say(chat, '/busy interrupt');
    await answer(chat, /^📨 Busy mode: interrupt/);
    say(chat, 'hang first');
    const progress = await progressOf(chat);
    await hanging('hang first');
    say(chat, 'instead this');
    await answer(chat, /^echo: instead this \(turn 3\)$/); // after the stopped turn, in the same session
    expect(world.telegram.message(chat, progress.messageId)!.text).toMatch(/⏹ claude · stopped/);
    expect((await invocation('instead this'))!.pid).toBe((await invocation('hang first'))!.pid);
  });

  it('/stop drops the steered messages the CLI has not taken, says how many, and the next message resumes', async () => {
    const chat = newChat();
    say(chat, 'hang busy');
    await hanging('hang busy');
    say(chat, 'never taken');
    await world.telegram.waitFor(() => (world.telegram.botMessages(chat)[0]?.text ?? '').includes('➕ added: never taken'));
    say(chat, '/stop');
    const report = await answer(chat, /^⏹ Stopped the turn/);
    expect(report.text).toBe('⏹ Stopped the turn; the session goes on with your next message. Dropped 1 waiting message.');
    say(chat, 'after the stop');
    await answer(chat, /^echo: after the stop \(turn \d\)$/);
    expect(await invocation('never taken')).toBeUndefined();
  });

  it('a CLI that crashes mid-session fails that turn with its words; the next message resumes the session in a new process', async () => {
    const chat = newChat();
    say(chat, 'first words');
    await answer(chat, /^echo: first words \(turn 1\)$/);
    say(chat, 'crash:3');
    expect((await answer(chat, /^❌ claude exited/)).text).toBe('❌ claude exited with code 3: fatal: the fake agent crashed on purpose');
    say(chat, 'later words');
    await answer(chat, /^echo: later words \(turn \d\)$/);
    const [before, after] = [await invocation('first words'), await invocation('later words')];
    expect(after!.pid).not.toBe(before!.pid);
    expect(after!.resume).toBe(before!.session);
  });

  it('restarts its CLI when the command line changes (/model), resuming the same session', async () => {
    const chat = newChat();
    say(chat, 'before');
    await answer(chat, /^echo: before \(turn 1\)$/);
    say(chat, '/model fake-opus');
    await answer(chat, /fake-opus/);
    say(chat, 'after');
    await answer(chat, /^echo: after \(turn 2\)$/);
    const [before, after] = [await invocation('before'), await invocation('after')];
    expect(after!.pid).not.toBe(before!.pid);
    expect(after!.argv.join(' ')).toContain('--model fake-opus');
    expect(after!.resume).toBe(before!.session);
    await expect.poll(() => alive(before!.pid)).toBe(false);
  });

  it("puts the agent's question to the chat as buttons; a press answers it, and Other takes the next message", async () => {
    const chat = newChat();
    say(chat, 'question pick');
    const asked = await answer(chat, /^❓ Color\nWhich color\?/);
    expect(asked.text).toContain('• Red: warm');
    press(chat, asked, 'Blue');
    expect((await answer(chat, /^echo: question pick/)).text).toContain('answered: Blue');

    say(chat, 'question again');
    const again = await world.telegram.waitFor(() =>
      world.telegram
        .botMessages(chat)
        .filter((m) => /^❓ Color/.test(m.text ?? '') && m.buttons.length)
        .at(-1),
    );
    press(chat, again, '✏️ Other');
    await world.telegram.waitFor(() => world.telegram.callsTo('answerCallbackQuery').some((c) => /Send your answer as a message/.test(String(c.params.text))));
    say(chat, 'Green, please');
    expect((await answer(chat, /^echo: question again/)).text).toContain('answered: Green, please');
  });

  it('while a question or plan waits, the next message of whoever started the turn answers it', async () => {
    const chat = newChat();
    say(chat, 'question typed');
    await answer(chat, /^❓ Color\nWhich color\?/);
    say(chat, 'from bob', COLLEAGUE); // someone else's message is not the answer: it queues
    say(chat, 'Purple');
    expect((await answer(chat, /^echo: question typed/)).text).toContain('answered: Purple');
    await answer(chat, /^echo: from bob/);

    say(chat, '/plan');
    await answer(chat, /^📋 Plan mode: your next message gets a plan first/);
    say(chat, 'rename things');
    await answer(chat, /^📋 Plan\nPLAN: rename things\n/);
    say(chat, 'only the public names');
    expect((await answer(chat, /^echo: rename things/)).text).toContain('kept planning: Ada wants changes to the plan: only the public names');
    expect(world.telegram.botMessages(chat).some((m) => /^📋 Plan\nPLAN: rename things\n[^]*✏️ Ada: only the public names$/.test(m.text ?? ''))).toBe(true);
    say(chat, '/plan off');
    await answer(chat, /^📋 Plan mode is off/);
  });

  it('/plan: the plan comes with Approve and Keep planning; Keep planning keeps planning, Approve lets the agent go on', async () => {
    const chat = newChat();
    say(chat, '/plan');
    await answer(chat, /^📋 Plan mode: your next message gets a plan first/);
    say(chat, 'refactor the parser');
    const plan = await answer(chat, /^📋 Plan\nPLAN: refactor the parser\n/);
    press(chat, plan, '✏️ Keep planning');
    expect((await answer(chat, /^echo: refactor the parser/)).text).toContain('kept planning: Ada wants to keep planning');

    say(chat, 'smaller steps');
    const second = await answer(chat, /^📋 Plan\nPLAN: smaller steps\n/);
    press(chat, second, '✅ Approve');
    expect((await answer(chat, /^echo: smaller steps/)).text).toContain('plan approved');
    say(chat, 'go on');
    const plain = await answer(chat, /^echo: go on/);
    expect(plain.text).not.toContain('plan');
  });

  it('/plan in safe mode stays read-only after Approve', async () => {
    const chat = newChat();
    say(chat, '/permissions safe');
    await answer(chat, /^🔐 Permissions: safe/);
    say(chat, '/plan');
    await answer(chat, /^📋 Plan mode: .*This chat stays read-only after Approve \(\/permissions safe\)\./);
    say(chat, 'plan the fix');
    press(chat, await answer(chat, /^📋 Plan\nPLAN: plan the fix\n/), '✅ Approve');
    expect((await answer(chat, /^echo: plan the fix/)).text).toContain('plan approved');
    say(chat, 'tools:1 now write it');
    expect((await answer(chat, /^echo: tools:1 now write it/)).text).toContain('denied: This chat only reads (/permissions safe), so Bash was refused.');
  });

  it('/handoff closes the live CLI first: the terminal is the session’s one writer, and the next message resumes it', async () => {
    const chat = newChat();
    say(chat, 'hand me over');
    await answer(chat, /^echo: hand me over/);
    const before = await invocation('hand me over');
    say(chat, '/handoff');
    await answer(chat, /^🖥 Continue this session in a terminal/);
    await expect.poll(() => alive(before!.pid)).toBe(false);
    say(chat, 'back in the chat');
    await answer(chat, /^echo: back in the chat \(turn 2\)$/);
    expect((await invocation('back in the chat'))!.resume).toBe(before!.session);
  });
});

describe('live sessions, bounded', () => {
  let bounded: TelegramWorld;
  beforeAll(async () => (bounded = await startTelegramWorld({ BRIDGE_LIVE_SESSIONS: '2' })));
  afterAll(() => bounded.stop());
  const sayIn = (chat: number, text: string) => bounded.telegram.sendText({ chatId: chat, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
  const answerIn = (chat: number, pattern: RegExp) =>
    bounded.telegram.waitFor(() => bounded.telegram.botMessages(chat).find((m) => pattern.test(shownText(m))), 20_000);
  const call = async (prompt: string) => (await bounded.cli.invocations()).find((c) => c.prompt === prompt)!;

  it('past BRIDGE_LIVE_SESSIONS the least recently used idle CLI closes, and resumes on its next message', async () => {
    for (const [chat, word] of [
      [-3001, 'alpha'],
      [-3002, 'beta'],
      [-3003, 'gamma'],
    ] as const) {
      sayIn(chat, word);
      await answerIn(chat, new RegExp(`^echo: ${word}`));
    }
    const alpha = await call('alpha');
    await expect.poll(() => alive(alpha.pid)).toBe(false);
    expect(alive((await call('beta')).pid)).toBe(true);
    expect(alive((await call('gamma')).pid)).toBe(true);
    sayIn(-3001, 'alpha again');
    await answerIn(-3001, /^echo: alpha again \(turn 2\)$/);
    expect((await call('alpha again')).resume).toBe(alpha.session);
  });

  it('never closes a busy CLI: with every one busy, a chat runs its CLI for this turn only', async () => {
    sayIn(-3011, 'hang one');
    sayIn(-3012, 'hang two');
    await expect.poll(async () => (await bounded.cli.invocations()).filter((c) => c.prompt.startsWith('hang')).length).toBe(2);
    sayIn(-3013, 'quick');
    await answerIn(-3013, /^echo: quick/);
    await expect.poll(async () => alive((await call('quick')).pid)).toBe(false);
    expect(alive((await call('hang one')).pid)).toBe(true);
    sayIn(-3011, '/stop');
    sayIn(-3012, '/stop');
    await answerIn(-3011, /^⏹ Stopped the turn/);
    await answerIn(-3012, /^⏹ Stopped the turn/);
  });
});
