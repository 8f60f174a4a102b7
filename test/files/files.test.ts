import { mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DownloadError, Inbox, INBOX_DIR } from '../../src/files/inbox.ts';
import { outgoingFile, resolveTarget, zipDirectory } from '../../src/files/outgoing.ts';
import { promptWithFiles } from '../../src/files/prompt.ts';
import { safeFileName } from '../../src/files/safe-name.ts';
import { Transcriber } from '../../src/files/transcriber.ts';
import type { Attachment, Downloads } from '../../src/ports/transport.ts';
import { tempDir } from '../support/bridge-process.ts';
import { startMockTranscriber, type MockTranscriber } from '../support/mock-transcriber.ts';

let dir: { path: string; remove(): Promise<void> };
beforeEach(async () => (dir = await tempDir('files-')));
afterEach(() => dir.remove());

/** Downloads served from memory (the Telegram side is tested against the fake Bot API). */
function downloads(files: Record<string, Buffer | Error>, maxBytes = 1000): Downloads {
  return {
    maxBytes,
    async download(attachment, path) {
      const content = files[attachment.id];
      if (content instanceof Error) {
        await writeFile(path, 'half of it');
        throw content;
      }
      await writeFile(path, content!);
    },
  };
}
const photo = (id: string): Attachment => ({ kind: 'photo', id, mimeType: 'image/jpeg' });

describe('safe file names', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\notes.txt', 'notes.txt'],
    ['.bashrc', 'bashrc'],
    ['my file (2).txt', 'my-file-_2_.txt'],
    ['$(rm -rf ~).sh', 'rm--rf-_.sh'],
    ['résumé.pdf', 'résumé.pdf'],
    ['a\u0000b\u202e.txt', 'ab.txt'],
    ['', 'document'],
    ['...', 'document'],
  ])('%j becomes %j', (raw, safe) => expect(safeFileName(raw, 'document')).toBe(safe));
});

describe('the inbox', () => {
  it('saves under a safe name, never overwriting, and keeps itself out of git', async () => {
    const inbox = new Inbox(downloads({ a: Buffer.from('first'), b: Buffer.from('second') }));
    const first = await inbox.save(dir.path, { kind: 'document', id: 'a', fileName: '../report.txt' });
    const second = await inbox.save(dir.path, { kind: 'document', id: 'b', fileName: 'report.txt' });
    expect(first).toMatchObject({ path: join(dir.path, INBOX_DIR, 'report.txt'), bytes: 5, kind: 'document' });
    expect(second.path).toBe(join(dir.path, INBOX_DIR, 'report-2.txt'));
    expect(await readFile(first.path, 'utf8')).toBe('first');
    expect(await readFile(join(dir.path, INBOX_DIR, '.gitignore'), 'utf8')).toBe('*\n');
    expect((await stat(join(dir.path, INBOX_DIR))).mode & 0o777).toBe(0o700);
    const named = await inbox.save(dir.path, photo('a'));
    expect(named.path).toBe(join(dir.path, INBOX_DIR, 'photo.jpg'));
    const pdf = await inbox.save(dir.path, { kind: 'document', id: 'b', mimeType: 'application/pdf' });
    expect(pdf.path).toBe(join(dir.path, INBOX_DIR, 'document.pdf'));
  });

  it('refuses a file over the limit before fetching it, and leaves nothing of a failed download', async () => {
    const inbox = new Inbox(downloads({ broken: new Error('the download broke off (3 of 9 bytes)') }));
    await expect(inbox.save(dir.path, { ...photo('big'), size: 5000 })).rejects.toThrow(/it is 5 KB, over the 1 KB a bot may download/);
    const failed = inbox.save(dir.path, photo('broken'));
    await expect(failed).rejects.toBeInstanceOf(DownloadError);
    await expect(failed).rejects.toThrow('the download broke off (3 of 9 bytes)');
    expect(await readdir(join(dir.path, INBOX_DIR))).toEqual(['.gitignore']);
  });

  it('sweeps files past their retention, and only those', async () => {
    const inbox = new Inbox(downloads({ a: Buffer.from('x') }));
    const old = await inbox.save(dir.path, photo('a'));
    const fresh = await inbox.save(dir.path, photo('a'));
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await utimes(old.path, twoDaysAgo, twoDaysAgo);
    expect(await inbox.sweep([dir.path, dir.path, join(dir.path, 'no-such')], 86_400_000)).toBe(1);
    expect((await readdir(join(dir.path, INBOX_DIR))).sort()).toEqual(['.gitignore', 'photo-2.jpg']);
    expect(fresh.path.endsWith('photo-2.jpg')).toBe(true);
  });
});

describe('prompts with files', () => {
  it('names each file from the working directory, with what it is', () => {
    const files = [
      { path: join('/w', INBOX_DIR, 'shot.jpg'), kind: 'photo' as const, bytes: 200_000 },
      { path: '/elsewhere/voice.oga', kind: 'voice' as const, bytes: 30_000, durationSeconds: 67 },
    ];
    expect(promptWithFiles('what is this error?', files, '/w')).toBe(
      'what is this error?\n\n[The user sent these 2 files with the message; open them to see what they hold:]\n- .bridge/inbox/shot.jpg (photo, 195 KB)\n- /elsewhere/voice.oga (voice note, 1:07, 29 KB)',
    );
    expect(promptWithFiles('hi', [], '/w')).toBe('hi');
    expect(promptWithFiles('', files.slice(0, 1), undefined)).toBe(
      '[The user sent this file with the message; open it to see what it holds:]\n- /w/.bridge/inbox/shot.jpg (photo, 195 KB)',
    );
  });
});

describe('files going out', () => {
  it('sends images as photos and the rest as documents; refuses what is outside, missing, a directory or empty', async () => {
    const work = join(dir.path, 'work');
    await mkdir(join(work, 'sub'), { recursive: true });
    await writeFile(join(work, 'chart.png'), 'png');
    await writeFile(join(work, 'patch.diff'), 'diff');
    await writeFile(join(work, 'empty.txt'), '');
    await writeFile(join(dir.path, 'secret.txt'), 'secret');
    await symlink(join(dir.path, 'secret.txt'), join(work, 'link.txt'));
    expect(await outgoingFile(work, 'chart.png', [work])).toMatchObject({ ok: true, as: 'photo', bytes: 3 });
    expect(await outgoingFile(work, join(work, 'patch.diff'), [work])).toMatchObject({ ok: true, as: 'document' });
    expect(await outgoingFile(work, '../secret.txt', [work])).toEqual({ ok: false, error: expect.stringMatching(/^\.\.\/secret\.txt is outside /) });
    expect(await outgoingFile(work, 'link.txt', [work])).toEqual({ ok: false, error: expect.stringMatching(/^link\.txt is outside /) });
    expect(await outgoingFile(work, 'nope.txt', [work])).toEqual({ ok: false, error: 'nope.txt does not exist.' });
    expect(await outgoingFile(work, 'sub', [work])).toEqual({ ok: false, error: 'sub is a directory: send the files in it, or an archive of it.' });
    expect(await outgoingFile(work, 'empty.txt', [work])).toEqual({ ok: false, error: 'empty.txt is empty.' });
    expect(await resolveTarget(work, 'sub', [work])).toEqual({ ok: true, path: join(work, 'sub'), directory: true });
  });

  it('zips a directory without its .git', async () => {
    const project = join(dir.path, 'project');
    await mkdir(join(project, 'src'), { recursive: true });
    await mkdir(join(project, '.git'), { recursive: true });
    await writeFile(join(project, 'src', 'a.ts'), 'export const a = 1;\n');
    await writeFile(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(project, '.env.example'), 'KEY=\n');
    const zip = await zipDirectory(project, join(dir.path, 'tmp'));
    if (!zip.ok) throw new Error(zip.error);
    const bytes = await readFile(zip.path);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const text = bytes.toString('latin1');
    expect(text).toContain('src/a.ts');
    expect(text).toContain('.env.example');
    expect(text).not.toContain('HEAD');
  });

  it('stops zipping past the limit and leaves no partial archive', async () => {
    const big = join(dir.path, 'big');
    await mkdir(big);
    for (let i = 0; i < 4; i++) await writeFile(join(big, `noise-${i}.bin`), randomBytes(200_000));
    const tmp = join(dir.path, 'tmp');
    expect(await zipDirectory(big, tmp, 300_000)).toEqual({
      ok: false,
      error: 'big zipped is over 293 KB, more than a bot can send: pick a smaller directory.',
    });
    expect(await readdir(tmp)).toEqual([]);
  });
});

describe('the transcriber', () => {
  let mock: MockTranscriber;
  beforeEach(async () => (mock = await startMockTranscriber()));
  afterEach(() => mock.close());

  it('posts the recording as multipart with the model and the key, and returns the text', async () => {
    const voice = join(dir.path, 'voice.oga');
    await writeFile(voice, Buffer.from('OggS-fake-audio'));
    const text = await new Transcriber({ url: mock.url, key: 'sk-test', model: 'whisper-large' }).transcribe(voice, 'audio/ogg');
    expect(text).toBe('hello from the voice note');
    expect(mock.requests).toEqual([
      {
        path: '/v1/audio/transcriptions',
        authorization: 'Bearer sk-test',
        model: 'whisper-large',
        fileName: 'voice.oga',
        fileType: 'audio/ogg',
        bytes: Buffer.from('OggS-fake-audio'),
      },
    ]);
  });

  it('turns failures into sentences: an error answer, an unreachable service', async () => {
    const voice = join(dir.path, 'voice.oga');
    await writeFile(voice, 'x');
    mock.answer = { status: 401, message: 'Incorrect API key provided' };
    await expect(new Transcriber({ url: mock.url, model: 'whisper-1' }).transcribe(voice)).rejects.toThrow(
      'the transcription service answered HTTP 401: Incorrect API key provided',
    );
    const gone = mock.url;
    await mock.close();
    mock = await startMockTranscriber(); // for afterEach
    await expect(new Transcriber({ url: gone, model: 'whisper-1' }).transcribe(voice)).rejects.toThrow(
      /^the transcription service could not be reached \(.*ECONNREFUSED/,
    );
  });
});
