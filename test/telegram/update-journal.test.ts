import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Update } from 'grammy/types';
import { afterEach, describe, expect, it } from 'vitest';
import { UpdateJournal } from '../../src/transports/telegram/update-journal.ts';

// The journal keeps each batch of messages on disk from the moment getUpdates returns it,
// before the runner asks for the next batch (which tells Telegram it was taken).
let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

const message = (id: number, text: string): Update =>
  ({ update_id: id, message: { message_id: id, date: 0, chat: { id: 1, type: 'private', first_name: 'Ada' }, text } }) as Update;

describe('the update journal', () => {
  it('has a batch on disk once received returns: a bridge killed before handling it replays it, in order', async () => {
    dir = await mkdtemp(join(tmpdir(), 'journal-'));
    const journal = await UpdateJournal.open(dir);
    await journal.received([message(11, 'first'), message(12, 'second')]);
    // Killed here: nothing handled. The next start finds both.
    const replayed: string[] = [];
    const next = await UpdateJournal.open(dir);
    expect(await next.replay(async (update) => void replayed.push(update.message!.text!))).toBe(2);
    expect(replayed).toEqual(['first', 'second']);
  });

  it('lets a message go once handled, and drops what Telegram gives again', async () => {
    dir = await mkdtemp(join(tmpdir(), 'journal-'));
    const journal = await UpdateJournal.open(dir);
    const handled: number[] = [];
    const handle = async (update: Update) => {
      await journal.middleware()({ update } as never, async () => void handled.push(update.update_id));
    };
    await journal.received([message(21, 'once')]);
    await handle(message(21, 'once'));
    expect(await (await UpdateJournal.open(dir)).replay(async () => {})).toBe(0);
    // Given again (Telegram was not told it was taken before a restart): dropped.
    const again = await UpdateJournal.open(dir);
    await again.received([message(21, 'once')]);
    await again.middleware()({ update: message(21, 'once') } as never, async () => void handled.push(-21));
    expect(handled).toEqual([21]);
  });
});
