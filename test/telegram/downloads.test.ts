import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Api } from 'grammy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Inbox, INBOX_DIR } from '../../src/engine/files/inbox.ts';
import { telegramDownloads } from '../../src/transports/telegram/attachments.ts';
import { FakeTelegram } from '../support/fake-telegram/index.ts';
import { tempDir } from '../support/bridge-process.ts';

// Downloads through grammY's real client and fetch, over HTTP, from the fake Bot API.
let fake: FakeTelegram;
let dir: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  fake = await FakeTelegram.start();
  dir = await tempDir('downloads-');
});
afterEach(async () => {
  await fake.close();
  await dir.remove();
});

function inbox(timeoutMs: number): Inbox {
  const api = new Api(fake.token, { apiRoot: fake.apiRoot });
  return new Inbox(telegramDownloads(api, { token: fake.token, apiRoot: fake.apiRoot }), { timeoutMs });
}

describe('a download into the inbox', () => {
  it('arrives whole; one that hangs is stopped at its deadline, and nothing of it is kept', async () => {
    const sent = fake.sendFile({ chatId: 5, userId: 5, kind: 'document', bytes: Buffer.from('the log'), fileName: 'build.log' });
    const attachment = { kind: 'document' as const, id: sent.document!.file_id, fileName: 'build.log' };
    const saved = await inbox(5000).save(dir.path, attachment);
    expect(await readFile(saved.path, 'utf8')).toBe('the log');

    fake.failNext('download', { hang: true });
    const started = Date.now();
    await expect(inbox(1000).save(dir.path, attachment)).rejects.toThrow('it was still arriving after 1 s, and was stopped');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await readdir(join(dir.path, INBOX_DIR))).toEqual(['.gitignore', 'build.log']);
  });
});
