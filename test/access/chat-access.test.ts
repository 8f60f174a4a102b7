import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ChatAccess } from '../../src/work/access/chat-access.ts';
import { createLog } from '../../src/kernel/log/logger.ts';
import { Secrets } from '../../src/kernel/log/secrets.ts';
import type { ChatMembers } from '../../src/kernel/ports/chat-members.ts';
import { chatRef, NO_CHAT } from '../../src/kernel/ports/chat.ts';

function world() {
  const lines: { level: number; msg: string }[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  let inFlight = 0;
  let most = 0;
  const asked: string[] = [];
  const telegram: ChatMembers = {
    async isMember(chat, person) {
      asked.push(chat.chat);
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      if (chat.chat === '-13') throw new Error('connect ECONNREFUSED');
      return person === 'telegram:222' && Number(chat.chat) % 2 === 0;
    },
  };
  const access = new ChatAccess({
    members: new Map([['telegram', telegram]]),
    isOwner: (person) => person === 'telegram:111',
    // An admin denied telegram:222 in -8 with /deny: being in it is not enough.
    mayUse: (chat, person) => !(person === 'telegram:222' && chat.chat === '-8'),
    log: createLog({ format: 'json', secrets: new Secrets(), destination }),
  });
  return { access, asked, lines, most: () => most };
}

describe('what a person sees', () => {
  it("asks each chat's transport once per chat for a list, all at once: 200 runs in 50 chats is 50 look-ups side by side", async () => {
    const { access, asked, most } = world();
    const runs = Array.from({ length: 200 }, (_, i) => ({ id: i, chat: chatRef('telegram', -(i % 50) - 20, i % 3 ? undefined : 1) }));
    const shown = await access.filter('telegram:222', runs, (run) => run.chat);
    expect(shown.map((run) => run.id)).toEqual(runs.filter((run) => Number(run.chat.chat) % 2 === 0).map((run) => run.id));
    expect(asked).toHaveLength(50);
    expect(most()).toBe(50);
  });

  it('shows an owner everything without asking, and runs of no chat to owners alone', async () => {
    const { access, asked } = world();
    expect(await access.sees('telegram:111', chatRef('telegram', -7))).toBe(true);
    expect(await access.sees('telegram:111', NO_CHAT)).toBe(true);
    expect(await access.sees('telegram:222', NO_CHAT)).toBe(false);
    expect(asked).toEqual([]);
  });

  it('hides a chat its admins denied the person in, though they are in it, without asking its app', async () => {
    const { access, asked } = world();
    expect(await access.sees('telegram:222', chatRef('telegram', -6))).toBe(true);
    expect(await access.sees('telegram:222', chatRef('telegram', -8, 3))).toBe(false);
    expect(await access.sees('telegram:111', chatRef('telegram', -8))).toBe(true);
    expect(asked).toEqual(['-6']);
  });

  it('closes a chat whose people cannot be learnt, or whose transport says nothing, with a log line', async () => {
    const { access, lines } = world();
    expect(await access.sees('telegram:222', chatRef('telegram', -13))).toBe(false);
    expect(await access.sees('telegram:222', chatRef('slack', 'C0123'))).toBe(false);
    expect(lines.map((line) => line.msg)).toEqual(['could not learn whether telegram:222 is in telegram:-13 (connect ECONNREFUSED): not shown to them']);
  });
});
