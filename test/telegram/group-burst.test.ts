import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// A group's burst of turns against Telegram's own limit (twenty calls a minute, enforced by the
// fake Bot API): when the chat's sending is short, a quick answer goes out alone, without a
// progress message or a queue notice before it.
let world: TelegramWorld;
beforeAll(async () => (world = await startTelegramWorld({}, { floodLimits: true })));
afterAll(() => world.stop());

const CHAT = -5100;
const say = (text: string) => world.telegram.sendText({ chatId: CHAT, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });

describe('a burst of turns in a group', () => {
  it('answers twelve messages at once, each its own turn, within one window of its limit and with no 429', async () => {
    say('/busy queue');
    await world.telegram.waitFor(() => world.telegram.botMessages(CHAT).some((m) => /^📨 Busy mode: queue/.test(m.text ?? '')));
    for (let i = 1; i <= 12; i++) say(`burst ${i}`);
    // Twelve answers at twenty calls a minute take 36 s at best; progress and notices for each would take more than a minute.
    await world.telegram.waitFor(() => world.telegram.botMessages(CHAT).filter((m) => /^echo: burst \d+/.test(shownText(m))).length === 12, 45_000);
    const answers = world.telegram
      .botMessages(CHAT)
      .map((m) => shownText(m))
      .filter((text) => text.startsWith('echo: burst'));
    expect(answers).toEqual(Array.from({ length: 12 }, (_, i) => `echo: burst ${i + 1} (turn ${i + 1})`));
    expect(world.telegram.calls.filter((call) => call.status === 429)).toEqual([]);
  });
});
