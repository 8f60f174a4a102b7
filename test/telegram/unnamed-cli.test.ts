import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Steering with a CLI that does not name the messages it is sent back (a claude older than
// 2.1.330 given by BRIDGE_CLAUDE_COMMAND, or any other CLI reading messages on its input: the
// fake CLI with $FAKE_CLI_UNNAMED): a message sent while it works is never written into the
// running turn, where its answer could be lost or taken by a later turn, but queued as a turn
// of its own, which the chat is told once. Every message gets its own answer, in a burst and
// in a soak with the Bot API failing every 8th call; a result the CLI writes for an earlier
// message is never a later turn's answer. Both kinds of older CLI: one folding messages that
// come while it works into its turn, one answering each with a result of its own.
let world: TelegramWorld;
let nextChat = -7300;
const newGroup = () => nextChat--;
const say = (chat: number, text: string) => world.telegram.sendText({ chatId: chat, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
const answers = (chat: number) => world.telegram.botMessages(chat).filter((m) => /^echo: /.test(shownText(m)));
const cannotSteer = /cannot take a message while it works/;

/** Every message has one answer, replying to it, that answers it alone (`echo: <its text> (turn N)`, nothing heard of another). */
function expectEachAnswered(chat: number, sent: { text: string; message_id: number }[]): void {
  const given = answers(chat);
  for (const message of sent) {
    const own = given.filter((answer) => answer.replyToMessageId === message.message_id);
    expect(own.map(shownText), message.text).toEqual([expect.stringMatching(new RegExp(`^echo: ${message.text} \\(turn \\d+\\)$`))]);
  }
  expect(given).toHaveLength(sent.length);
}

describe.each(['1', 'separate'])('a CLI that does not name the messages it is sent (FAKE_CLI_UNNAMED=%s)', (unnamed) => {
  beforeAll(async () => {
    world = await startTelegramWorld({ FAKE_CLI_UNNAMED: unnamed, BRIDGE_BUSY_MODE: 'steer' });
  });
  afterAll(() => world?.stop());

  it('answers a burst of 12 messages each on its own, and says once that messages sent meanwhile wait', async () => {
    const chat = newGroup();
    const first = 'tools:5 pace:400 q1';
    const sent = [say(chat, first)];
    // The rest come while it works: its CLI has started on the first.
    await expect.poll(async () => (await world.cli.invocations()).some((call) => call.prompt === first), { timeout: 30_000 }).toBe(true);
    for (let i = 2; i <= 12; i++) sent.push(say(chat, `q${i}`));
    await world.telegram.waitFor(() => answers(chat).length >= 12 || undefined, 80_000);
    expectEachAnswered(
      chat,
      sent.map((message, i) => ({ text: i ? `q${i + 1}` : first, message_id: message.message_id })),
    );
    expect(world.telegram.botMessages(chat).filter((m) => cannotSteer.test(shownText(m)))).toHaveLength(1);
    // None was taken into a running turn: no 👀 on any of them.
    for (const message of sent) expect(world.telegram.message(chat, message.message_id)!.botReactions).not.toContain('👀');
  }, 120_000);

  it('loses and mixes up nothing in a soak: 6 groups, 3 messages at once in each, every 8th Bot API call failing', async () => {
    world.telegram.failNext('*', { code: 502, description: 'Bad Gateway' }, { every: 8 });
    try {
      const groups = Array.from({ length: 6 }, () => newGroup());
      const sent = new Map<number, { text: string; message_id: number }[]>();
      for (const chat of groups) {
        const texts = [`tools:1 pace:100 s${chat}a`, `s${chat}b`, `s${chat}c`];
        sent.set(
          chat,
          texts.map((text) => ({ text, message_id: say(chat, text).message_id })),
        );
      }
      await world.telegram.waitFor(() => groups.every((chat) => answers(chat).length >= 3) || undefined, 90_000);
      for (const chat of groups) expectEachAnswered(chat, sent.get(chat)!);
    } finally {
      world.telegram.clearFaults();
    }
  }, 120_000);

  it('never gives a later turn the second result the CLI wrote for an earlier message', async () => {
    const chat = newGroup();
    const first = 'tools:2 pace:300 answer-twice:1 first';
    const sent = [{ text: first, message_id: say(chat, first).message_id }];
    await expect.poll(async () => (await world.cli.invocations()).some((call) => call.prompt === first), { timeout: 30_000 }).toBe(true);
    sent.push({ text: 'second', message_id: say(chat, 'second').message_id });
    await world.telegram.waitFor(() => answers(chat).length >= 2 || undefined, 60_000);
    // The late result came after the second was written, and before its answer.
    await expect.poll(async () => (await world.cli.invocations()).some((call) => call.prompt === 'second'), { timeout: 30_000 }).toBe(true);
    expectEachAnswered(chat, sent);
    expect(world.telegram.botMessages(chat).some((m) => /late answer/.test(shownText(m)))).toBe(false);
  }, 120_000);
});
