import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Roles: owners, admins and members in one group, each refused what their role does not
// allow with the role they would need, and told who they are by /whoami.
const OWNER = 111;
const ADMIN = 222;
const MEMBER = 333;
const GROUP = -4100;
let world: TelegramWorld;

beforeAll(async () => {
  world = await startTelegramWorld({ BRIDGE_ALLOWED_USERS: `${OWNER},${MEMBER}`, BRIDGE_ADMINS: String(ADMIN) });
});
afterAll(() => world?.stop());

/** What the bot answers `userId`'s `text` in the group. */
async function answerTo(userId: number, text: string, firstName: string): Promise<string> {
  const asked = world.telegram.sendText({ chatId: GROUP, userId, text, firstName, chatType: 'group' });
  const reply = await world.telegram.waitFor(() =>
    world.telegram
      .botMessages(GROUP)
      .find((m) => m.replyToMessageId === asked.message_id || (m.messageId > asked.message_id && /^(⛔|You are|🔐|Send any text)/.test(shownText(m)))),
  );
  return shownText(reply);
}

describe('roles', () => {
  it('refuse a member what an admin may do, naming the role it needs', async () => {
    expect(await answerTo(MEMBER, '/permissions ask', 'Mia')).toBe(
      '⛔ /permissions ask needs an admin (BRIDGE_ADMINS) or an owner; you are a member (/whoami says why).',
    );
    expect(await answerTo(MEMBER, '/every daily 09:00 check the build', 'Mia')).toMatch(/^⛔ \/every daily 09:00 check the build needs an admin/);
    expect(await answerTo(MEMBER, '/permissions', 'Mia')).toMatch(/^🔐 Permissions: /);
  });

  it('let an admin change the chat, and refuse them what only an owner may do', async () => {
    expect(await answerTo(ADMIN, '/permissions ask', 'Ade')).toMatch(/^🔐 Permissions: ask/);
    expect(await answerTo(ADMIN, '/trust /srv', 'Ade')).toBe(
      '⛔ /trust /srv needs an owner (BRIDGE_OWNERS, by default the first id in BRIDGE_ALLOWED_USERS); you are an admin (/whoami says why).',
    );
  });

  it('are said by /whoami, with why', async () => {
    expect(await answerTo(OWNER, '/whoami', 'Ada')).toMatch(/^You are Ada \(telegram:111\), an owner here: BRIDGE_OWNERS names you/);
    expect(await answerTo(ADMIN, '/whoami', 'Ade')).toMatch(
      /^You are Ade \(telegram:222\), an admin here: BRIDGE_ADMINS names you\.\nYou may change the modes/,
    );
    expect(await answerTo(MEMBER, '/whoami', 'Mia')).toMatch(
      /^You are Mia \(telegram:333\), a member here: BRIDGE_ALLOWED_USERS names you\.\nYou may talk to the agent/,
    );
  });

  it('show each person in /help only what they may use', async () => {
    const member = await answerTo(MEMBER, '/help', 'Mia');
    const admin = await answerTo(ADMIN, '/help', 'Ade');
    expect(member).not.toMatch(/^\/every /m);
    expect(member).toMatch(/^\/whoami/m);
    expect(admin).toMatch(/^\/every /m);
  });

  it("stop with /stop a member's own runs only; an admin's stops every run of the chat", async () => {
    const chatId = GROUP - 1;
    const says = (userId: number, text: string, firstName: string) => world.telegram.sendText({ chatId, userId, text, firstName, chatType: 'group' });
    const shown = () => world.telegram.botMessages(chatId).map(shownText);
    says(OWNER, '/spawn "hang"', 'Ada');
    await world.telegram.waitFor(() => shown().some((text) => /^🚀 #1 started/.test(text)));
    says(MEMBER, '/spawn "hang"', 'Mia');
    await world.telegram.waitFor(() => shown().some((text) => /^🚀 #2 started/.test(text)));
    says(MEMBER, '/stop', 'Mia');
    const mine = await world.telegram.waitFor(() => shown().find((text) => /Stopped 1 subagent of yours/.test(text)));
    expect(mine).toContain("1 subagent of others goes on: an admin's /stop stops them.");
    says(ADMIN, '/stop', 'Ade');
    await world.telegram.waitFor(() => shown().find((text) => /^No turn was running\.\n⏹ Stopped 1 subagent\.$/.test(text)));
  });
});
