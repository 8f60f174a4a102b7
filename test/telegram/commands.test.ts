import { describe, expect, it } from 'vitest';
import { ownCommandText } from '../../src/transports/telegram/commands.ts';
import { attachmentsOf } from '../../src/transports/telegram/attachments.ts';
import { parseCommandLine } from '../../src/chat/dispatch/command-line.ts';
import type { Message } from 'grammy/types';

describe("a Telegram group's commands, as the bridge is handed them", () => {
  it('takes /cmd@thisbot as /cmd, whatever the case of the name', () => {
    expect(ownCommandText('/status@bridge_bot', 'bridge_bot')).toBe('/status');
    expect(ownCommandText('/spawn@Bridge_Bot "fix it"\nnow', 'bridge_bot')).toBe('/spawn "fix it"\nnow');
  });

  it("hands on nothing of another bot's command", () => {
    expect(ownCommandText('/status@other_bot', 'bridge_bot')).toBeUndefined();
    expect(ownCommandText('/status@other_bot and more', 'bridge_bot')).toBeUndefined();
  });

  it('leaves everything else as it is', () => {
    for (const text of ['/status', 'hello @other_bot', 'mail me@example.com', '/status @other_bot', '']) expect(ownCommandText(text, 'bridge_bot')).toBe(text);
  });
});

describe('the core reads a command as every transport hands it on', () => {
  it('/name and the rest, lowercased name; an addressed one is not a command any more', () => {
    expect(parseCommandLine('/Status  now ')).toEqual({ name: 'status', rest: 'now' });
    expect(parseCommandLine('/help@bridge_bot')).toBeNull();
    expect(parseCommandLine('not /a command')).toBeNull();
  });
});

describe("a Telegram message's files", () => {
  it('a round video message is a video recorded in the app', () => {
    const message = {
      message_id: 1,
      date: 0,
      chat: { id: 1, type: 'private', first_name: 'Ada' },
      video_note: { file_id: 'F', file_unique_id: 'U', length: 240, duration: 9, file_size: 3 },
    };
    expect(attachmentsOf(message as Message)).toEqual([{ kind: 'video', recorded: true, id: 'F', mimeType: 'video/mp4', size: 3, durationSeconds: 9 }]);
  });
});
