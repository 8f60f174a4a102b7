import { describe, expect, it } from 'vitest';
import { PeopleSeen } from '../../src/work/access/people-seen.ts';
import { whomNamed } from '../../src/chat/commands/people.ts';
import { chatRef, type IncomingMessage } from '../../src/kernel/ports/chat.ts';

// Whom /allow and /deny name, on the chat's own transport, however a person writes them.
const GROUP = chatRef('slack', 'C1');
const seen = new PeopleSeen();
seen.saw(GROUP, { id: 'U0SAM0001', name: 'Sam' });
seen.saw(chatRef('slack', 'C2'), { id: 'U0ADA0001', name: 'Ada' });
seen.saw(chatRef('slack', 'C3'), { id: 'U0ADA0002', name: 'ada' });
seen.saw(chatRef('telegram', '-1'), { id: '42', name: '@mia' });

function named(args: string, replyTo?: IncomingMessage['replyTo'], chat = GROUP) {
  // As Telegram sends a command in a group: with the bot's name.
  const message = { address: chat, user: { id: 'U0BOSS001' }, text: `/allow@bridge_test_bot ${args}`, ...(replyTo ? { replyTo } : {}) } as IncomingMessage;
  return whomNamed({ args, message, chat: { address: chat }, services: { seen } } as unknown as Parameters<typeof whomNamed>[0], 'allow');
}

describe('whom /allow names', () => {
  it("names the author of the message it replies to, a mention, or an id on the chat's transport", () => {
    expect(named('', { text: 'hi', from: 'Sam', fromId: 'U0SAM0001' })).toEqual({ person: 'slack:U0SAM0001', name: 'Sam' });
    expect(named('<@U0SAM0001|sam>')).toEqual({ person: 'slack:U0SAM0001', name: 'sam' });
    expect(named('<@81384788765712384>', undefined, chatRef('discord', '9'))).toEqual({ person: 'discord:81384788765712384' });
    expect(named('U0SAM0001')).toEqual({ person: 'slack:U0SAM0001' });
    expect(named('slack:U0SAM0001')).toEqual({ person: 'slack:U0SAM0001' });
    expect(named('333', undefined, chatRef('telegram', '-1'))).toEqual({ person: 'telegram:333' });
  });

  it('finds a name seen in the chat first, then anywhere on its transport, letter case and @ aside', () => {
    expect(named('@Sam')).toEqual({ person: 'slack:U0SAM0001', name: 'Sam' });
    expect(named('mia', undefined, chatRef('telegram', '-7'))).toEqual({ person: 'telegram:42', name: '@mia' });
  });

  it('says why when nobody, or more than one, goes by what was written, or the id is of another app', () => {
    expect(named('ADA')).toEqual({ problem: 'Several people go by “ADA”: Ada (slack:U0ADA0001), ada (slack:U0ADA0002). Give the id of the one you mean.' });
    expect(named('Zed')).toEqual({
      problem:
        "I haven't seen anyone called “Zed” write here since I started. Reply to one of their messages with /allow, or give their id (the refusal they got shows it).",
    });
    expect(named('telegram:333')).toEqual({ problem: 'telegram:333 is someone of telegram; this chat is on slack.' });
    expect(named('')).toEqual({ problem: 'Name someone: reply to one of their messages, or give their id or the name they write under.' });
  });
});
