import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTelegramWorld, ownerIn, type TelegramWorld } from '../support/telegram-world.ts';

// Conversations a chat had, picked up again with /resume.
let world: TelegramWorld;
beforeAll(async () => (world = await startTelegramWorld()));
afterAll(() => world.stop());

const CHAT = -1600;
const { say, waitText: answer } = ownerIn(() => world, CHAT);
const callbackData = (button: unknown) => (button as { callback_data: string }).callback_data;

describe('/resume', () => {
  it("lists the chat's sessions newest first, and continues the one chosen by number or by button", async () => {
    say('/resume');
    await answer(/^No sessions yet/);
    say('say:first-topic');
    await answer(/^first-topic/);
    say('say:more-of-the-first');
    await answer(/^more-of-the-first/);
    say('/new');
    await answer(/^🆕 Fresh/);
    say('say:second-topic');
    await answer(/^second-topic/);
    const calls = await world.cli.invocations();
    const [first, second] = [calls.find((c) => c.prompt === 'say:more-of-the-first')!.session, calls.find((c) => c.prompt === 'say:second-topic')];
    expect(second!.resume).toBeUndefined();

    say('/resume');
    const list = await answer(/^Sessions, newest first\n/);
    expect(list.text).toMatch(
      /\n1\. (just now|\d+ s ago) · 1 turn · claude · "say:second-topic" · .* \(current\)\n2\. (just now|\d+ s ago) · 2 turns · claude · "say:first-topic"/,
    );
    expect(list.buttons.map((b) => callbackData(b))).toEqual([expect.stringMatching(/^rs:/), `rs:${first}`]);

    say('/resume 2');
    await answer(/^▶ The next message continues the claude session "say:first-topic" \(2 turns\)/);
    say('say:back-again');
    await answer(/^back-again/);
    expect((await world.cli.invocations()).find((c) => c.prompt === 'say:back-again')!.resume).toBe(first);

    say('/resume 9');
    await answer(/^⚠️ Choose a session from 1 to 2: \/resume lists them\./);
    const newest = world.telegram
      .botMessages(CHAT)
      .filter((m) => m.text?.startsWith('Sessions, newest first'))
      .at(-1)!;
    world.telegram.pressButton({ chatId: CHAT, messageId: newest.messageId, data: callbackData(newest.buttons[0]), userId: OWNER });
    await answer(/^▶ The next message continues the claude session "say:second-topic"/);
  });
});
