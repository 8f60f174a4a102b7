import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// A person's daily budget across chats (BRIDGE_PERSON_DAILY_BUDGET_USD), with the bridge as a
// real process over the fake Bot API and the fake CLI, whose every turn costs $0.0010.
const OWNER = 111;
const ADMIN = 222;
const MEMBER = 333;
const [FIRST, SECOND, THIRD] = [-7101, -7102, -7103];
let world: TelegramWorld;

beforeAll(async () => {
  world = await startTelegramWorld({
    BRIDGE_ALLOWED_USERS: `${OWNER},${MEMBER}`,
    BRIDGE_ADMINS: String(ADMIN),
    BRIDGE_PERSON_DAILY_BUDGET_USD: '0.002',
  });
});
afterAll(() => world?.stop());

const NAMES: Record<number, string> = { [OWNER]: 'Ada', [ADMIN]: 'Ade', [MEMBER]: 'Mia' };

/** What the bot answers `userId`'s `text` in a group: the first message after it that `pattern` fits. */
async function answerTo(chatId: number, userId: number, text: string, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const asked = world.telegram.sendText({ chatId, userId, text, firstName: NAMES[userId]!, chatType: 'group' });
  const reply = await world.telegram.waitFor(
    () => world.telegram.botMessages(chatId).find((m) => m.messageId > asked.message_id && pattern.test(shownText(m))),
    timeoutMs,
  );
  return shownText(reply);
}

/** Asks /usage until its answer fits (a turn's cost is recorded just after its answer is shown). */
async function usageOnceItShows(chatId: number, userId: number, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const shown = await answerTo(chatId, userId, '/usage', /^💰 Usage of this chat/);
    if (pattern.test(shown) || Date.now() > deadline) return shown;
  }
}

describe("a person's daily budget", () => {
  it('spans chats: their third turn is refused with when it resets, and others go on in the same chat', async () => {
    expect(await answerTo(FIRST, MEMBER, 'say:mia-one', /mia-one/)).toContain('mia-one');
    expect(await answerTo(SECOND, MEMBER, 'say:mia-two', /mia-two/)).toContain('mia-two');
    expect(await usageOnceItShows(SECOND, MEMBER, /You today: \$0\.0020/)).toMatch(
      /\nYou today: \$0\.0020 across chats, \$0\.0010 here of your daily budget of \$0\.0020 \(100 %\), resets at 00:00 UTC/,
    );

    const refused = await answerTo(FIRST, MEMBER, 'say:mia-three', /^💸 Mia, you have spent/);
    expect(refused).toMatch(
      /^💸 Mia, you have spent \$0\.0020 today across chats, your daily budget of \$0\.0020 \(BRIDGE_PERSON_DAILY_BUDGET_USD\)\. Your new turns and subagents wait until it resets at 00:00 UTC, in \d+:\d\d(:\d\d)?; what is running finishes\.$/,
    );
    expect(await answerTo(FIRST, MEMBER, '/spawn say:mia-run', /^(⚠️|⛔|💸|🚀)/)).toMatch(/^⚠️ 💸 Mia, you have spent \$0\.0020 today across chats/);
    // Another person in the same chat is not held to Mia's day.
    expect(await answerTo(FIRST, ADMIN, 'say:ade-one', /ade-one/)).toContain('ade-one');
    const prompts = (await world.cli.invocations()).map((call) => call.prompt);
    expect(prompts.filter((prompt) => prompt.includes('mia-'))).toEqual(['say:mia-one', 'say:mia-two']);
  });

  it("counts a schedule's turns against its maker as well as its chat", async () => {
    await answerTo(THIRD, OWNER, '/at in 1s say:scheduled-turn', /^⏰/);
    await world.telegram.waitFor(() =>
      world.telegram.botMessages(THIRD).find((m) => shownText(m).includes('scheduled-turn') && !shownText(m).startsWith('⏰')),
    );
    expect(await usageOnceItShows(THIRD, OWNER, /You today: \$0\.0010/)).toMatch(/\nYou today: \$0\.0010 across chats, \$0\.0010 here of your daily budget/);
  });

  it('is shown by /usage to each as their role allows: a member their own, an admin their chat’s people, an owner everyone', async () => {
    const member = await answerTo(FIRST, MEMBER, '/usage', /^💰 Usage of this chat/);
    expect(member).toMatch(/\nYou today: \$0\.0020 across chats, \$0\.0010 here/);
    expect(member).not.toContain('People in this chat');
    expect(member).not.toContain('Everyone today');

    const admin = await usageOnceItShows(FIRST, ADMIN, /Ade \(telegram:222\)/);
    expect(admin).toMatch(/\nPeople in this chat today:\n {2}(Mia \(telegram:333\)|Ade \(telegram:222\)): \$0\.0010 · 1 turn/);
    expect(admin).toContain('  Mia (telegram:333): $0.0010 · 1 turn');
    expect(admin).toContain('  Ade (telegram:222): $0.0010 · 1 turn');
    expect(admin).not.toContain('Everyone today');

    const owner = await answerTo(FIRST, OWNER, '/usage', /^💰 Usage of this chat/);
    expect(owner).toContain('\nEveryone today, across chats:\n  Mia (telegram:333): $0.0020 · 2 turns');
    expect(owner).toContain('  Ade (telegram:222): $0.0010 · 1 turn');
    expect(owner).toContain('  Ada (telegram:111): $0.0010 · 1 turn');
  });
});
