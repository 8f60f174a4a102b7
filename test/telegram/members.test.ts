import { Api } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membersThrough } from '../../src/transports/telegram/members.ts';
import { telegramChat } from '../../src/transports/telegram/id.ts';
import { FakeTelegram } from '../support/fake-telegram/index.ts';

// getChatMember through grammY against the fake Bot API over HTTP, with Telegram's answers and errors.
let telegram: FakeTelegram;
let api: Api;
const GROUP = -4300;

beforeAll(async () => {
  telegram = await FakeTelegram.start();
  api = new Api(telegram.token, { apiRoot: telegram.apiRoot });
  for (const userId of [111, 222, 333, 444, 555]) telegram.sendText({ chatId: GROUP, userId, text: 'hi' });
  telegram.sendText({ chatId: 111, userId: 111, text: 'hi' });
});
afterAll(() => telegram?.close());

describe("Telegram's members", () => {
  it('counts creators, administrators, members and restricted people still in the group; not those who left, were kicked, or are restricted outside', async () => {
    const members = membersThrough(api);
    telegram.setStanding(GROUP, 111, { status: 'creator' });
    telegram.setStanding(GROUP, 222, { status: 'left' });
    telegram.setStanding(GROUP, 333, { status: 'kicked' });
    telegram.setStanding(GROUP, 444, { status: 'restricted', isMember: false });
    telegram.setStanding(GROUP, 555, { status: 'restricted', isMember: true });
    const answers = await Promise.all([111, 222, 333, 444, 555].map((id) => members.isMember(telegramChat(GROUP), `telegram:${id}`)));
    expect(answers).toEqual([true, false, false, false, true]);
  });

  it('takes "chat not found" and "user not found" as no, and a private chat as its own person\'s without asking', async () => {
    const members = membersThrough(api);
    const before = telegram.callsTo('getChatMember').length;
    expect(await members.isMember(telegramChat(-999), 'telegram:111')).toBe(false);
    expect(await members.isMember(telegramChat(GROUP), 'telegram:777')).toBe(false);
    const answered = telegram.callsTo('getChatMember').slice(before);
    expect(answered.map((call) => call.status)).toEqual([400, 400]);
    expect(await members.isMember(telegramChat(111), 'telegram:111')).toBe(true);
    expect(await members.isMember(telegramChat(111), 'telegram:222')).toBe(false);
    expect(await members.isMember(telegramChat(GROUP), 'web:someone')).toBe(false);
    expect(telegram.callsTo('getChatMember').length).toBe(before + 2);
  });

  it('cannot tell when the Bot API fails: the look-up rejects, for its caller to refuse', async () => {
    const members = membersThrough(api);
    telegram.failNext('getChatMember', { code: 500 });
    await expect(members.isMember(telegramChat(GROUP), 'telegram:111')).rejects.toThrow(/Internal Server Error/);
    telegram.failNext('getChatMember', { networkDrop: true });
    await expect(members.isMember(telegramChat(GROUP), 'telegram:111')).rejects.toThrow();
  });

  it('asks about many chats side by side, ten at a time at most', async () => {
    let running = 0;
    let most = 0;
    const members = membersThrough({
      getChatMember: async (_chat, user) => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return { status: 'member', user: { id: Number(user), is_bot: false, first_name: 'B' } };
      },
    });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => members.isMember(telegramChat(-6000 - i), 'telegram:222')));
    expect(answers.every(Boolean)).toBe(true);
    expect(most).toBe(10);
  });
});
