import { mkdir, readdir, readFile, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { execa } from 'execa';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DownloadError, Inbox, INBOX_DIR } from '../../src/engine/files/inbox.ts';
import { outgoingFile, resolveTarget, zipDirectory, type Outgoing, type Sendable } from '../../src/engine/files/outgoing.ts';
import { promptWithFiles } from '../../src/engine/files/prompt.ts';
import { openInPlace } from '../../src/engine/files/agent-place.ts';
import { safeFileName } from '../../src/engine/files/safe-name.ts';
import { Transcriber } from '../../src/engine/files/transcriber.ts';
import type { Attachment, Downloads } from '../../src/kernel/ports/chat.ts';
import { tempDir } from '../support/bridge-process.ts';
import { startMockTranscriber, type MockTranscriber } from '../support/mock-transcriber.ts';

/** A chat app's limits on what the bridge sends: 50 MB a file, 10 MB an image shown inline. */
const LIMITS = { uploadBytes: 50 * 1024 * 1024, photoBytes: 10 * 1024 * 1024 };

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

  it('says so when the chat’s directory is gone, making nothing', async () => {
    const gone = join(dir.path, 'deleted-project');
    const saving = new Inbox(downloads({ a: Buffer.from('x') })).save(gone, photo('a'));
    await expect(saving).rejects.toThrow(`this chat's directory, ${gone}, is gone`);
    await expect(saving).rejects.toMatchObject({ advice: '/cd to another directory to receive files' });
    expect(await readdir(dir.path)).toEqual([]);
  });

  it('stops a download still arriving at its deadline, keeping nothing of it', async () => {
    const stalled: Downloads = {
      maxBytes: 1000,
      async download(_attachment, path, signal) {
        await writeFile(path, 'the first half');
        await new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    };
    const started = Date.now();
    const saving = new Inbox(stalled, { timeoutMs: 1000 }).save(dir.path, { kind: 'document', id: 'slow', fileName: 'huge.iso' });
    await expect(saving).rejects.toThrow('it was still arriving after 1 s, and was stopped');
    await expect(saving).rejects.toBeInstanceOf(DownloadError);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await readdir(join(dir.path, INBOX_DIR))).toEqual(['.gitignore']);
  });

  it('sweeps files past their retention, and only those', async () => {
    const inbox = new Inbox(downloads({ a: Buffer.from('x') }));
    const old = await inbox.save(dir.path, photo('a'));
    const fresh = await inbox.save(dir.path, photo('a'));
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await utimes(old.path, twoDaysAgo, twoDaysAgo);
    expect(await Inbox.sweep([dir.path, dir.path, join(dir.path, 'no-such')], 86_400_000)).toEqual({ removed: 1, refused: [] });
    expect((await readdir(join(dir.path, INBOX_DIR))).sort()).toEqual(['.gitignore', 'photo-2.jpg']);
    expect(fresh.path.endsWith('photo-2.jpg')).toBe(true);
  });
});

describe('an inbox that leads outside the working directory', () => {
  const weekAgo = new Date(Date.now() - 7 * 86_400_000);

  /** A repository shipping `.bridge/inbox -> ../../elsewhere`, and week-old files there. */
  async function layout() {
    // From repo/.bridge/, ../../elsewhere is beside the repository.
    const elsewhere = join(dir.path, 'projects', 'elsewhere');
    const repo = join(dir.path, 'projects', 'repo');
    await mkdir(elsewhere, { recursive: true });
    await mkdir(join(repo, '.bridge'), { recursive: true });
    await writeFile(join(elsewhere, 'thesis.tex'), 'years of work');
    await utimes(join(elsewhere, 'thesis.tex'), weekAgo, weekAgo);
    await symlink('../../elsewhere', join(repo, '.bridge', 'inbox'));
    return { elsewhere, repo };
  }

  it('saves nothing through it, and says so', async () => {
    const { elsewhere, repo } = await layout();
    const inbox = new Inbox(downloads({ a: Buffer.from('x') }));
    const saving = inbox.save(repo, { kind: 'document', id: 'a', fileName: 'notes.txt' });
    await expect(saving).rejects.toBeInstanceOf(DownloadError);
    await expect(saving).rejects.toThrow(`this chat's inbox: .bridge/inbox leads outside ${repo} (to ${elsewhere})`);
    await expect(saving).rejects.toMatchObject({ advice: 'move .bridge/inbox out of the way (or /cd to another directory) to receive files here' });
    expect(await readdir(elsewhere)).toEqual(['thesis.tex']);
  });

  it('saves nothing through a `.bridge` swapped for a link while a file arrives (a race with the check): it lands in the inbox checked', async () => {
    const repo = join(dir.path, 'repo');
    const outside = join(dir.path, 'outside');
    await mkdir(join(outside, 'inbox'), { recursive: true });
    await mkdir(repo);
    const swapping: Downloads = {
      maxBytes: 1000,
      async download(_attachment, path) {
        // As an agent in the working directory would, once the inbox was checked.
        await rename(join(repo, '.bridge'), join(repo, 'moved'));
        await symlink(outside, join(repo, '.bridge'));
        await writeFile(path, 'the report');
      },
    };
    const saved = await new Inbox(swapping).save(repo, { kind: 'document', id: 'a', fileName: 'report.txt' });
    expect(saved.path).toBe(join(repo, INBOX_DIR, 'report.txt')); // where it was, when it was saved
    expect(await readdir(join(outside, 'inbox'))).toEqual([]);
    expect(await readFile(join(repo, 'moved', 'inbox', 'report.txt'), 'utf8')).toBe('the report');
  });

  it('is not swept: week-old files there survive, and the refusal is reported', async () => {
    const { elsewhere, repo } = await layout();
    const swept = await Inbox.sweep([repo], 86_400_000);
    expect(swept).toEqual({ removed: 0, refused: [expect.stringContaining(`${repo}: .bridge/inbox leads outside`)] });
    expect(await readFile(join(elsewhere, 'thesis.tex'), 'utf8')).toBe('years of work');
  });

  it('nor is a `.bridge` that is itself a link outside; a link inside the directory is fine', async () => {
    const outside = join(dir.path, 'outside');
    const repo = join(dir.path, 'repo');
    await mkdir(outside);
    await mkdir(repo);
    await symlink(outside, join(repo, '.bridge'));
    const inbox = new Inbox(downloads({ a: Buffer.from('x') }));
    await expect(inbox.save(repo, photo('a'))).rejects.toThrow(/leads outside/);
    expect(await readdir(outside)).toEqual([]); // no inbox made there

    const inside = join(dir.path, 'inside');
    await mkdir(join(inside, 'real-bridge'), { recursive: true });
    await symlink('real-bridge', join(inside, '.bridge'));
    expect((await inbox.save(inside, photo('a'))).path).toBe(join(inside, 'real-bridge', 'inbox', 'photo.jpg'));
    // A working directory reached through a link keeps its name in what the agent is told.
    await symlink(inside, join(dir.path, 'via-link'));
    expect((await inbox.save(join(dir.path, 'via-link'), photo('a'))).path).toBe(join(dir.path, 'via-link', 'real-bridge', 'inbox', 'photo-2.jpg'));
  });

  it('sweeps a link inside the inbox as a link: its old target outside stays', async () => {
    const inbox = new Inbox(downloads({ a: Buffer.from('x') }));
    await inbox.save(dir.path, photo('a'));
    const target = join(dir.path, '..', `precious-${randomBytes(4).toString('hex')}`);
    await writeFile(target, 'keep me');
    await utimes(target, weekAgo, weekAgo);
    try {
      await symlink(target, join(dir.path, INBOX_DIR, 'bait'));
      expect(await Inbox.sweep([dir.path], 86_400_000)).toEqual({ removed: 0, refused: [] });
      expect(await readFile(target, 'utf8')).toBe('keep me');
    } finally {
      await rm(target, { force: true });
    }
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

/** What would be sent, read the way the transport reads it (from the checked descriptor), then closed. */
async function bytesOf(file: Sendable): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of file.content()) chunks.push(chunk);
  await file.close();
  return Buffer.concat(chunks);
}
async function sent(outgoing: Promise<Outgoing>): Promise<Outgoing> {
  const file = await outgoing;
  if (file.ok) await file.close();
  return file;
}

describe('files going out', () => {
  it('sends what was checked: the path swapped for a link or a pipe afterwards changes nothing', async () => {
    const work = join(dir.path, 'work');
    await mkdir(work);
    await writeFile(join(work, 'report.txt'), 'the report');
    await writeFile(join(dir.path, 'secret.txt'), 'secret');
    const file = await outgoingFile(work, 'report.txt', [work], LIMITS);
    if (!file.ok) throw new Error(file.error);
    await rm(join(work, 'report.txt'));
    await symlink(join(dir.path, 'secret.txt'), join(work, 'report.txt'));
    expect((await bytesOf(file)).toString()).toBe('the report');

    await writeFile(join(work, 'data.csv'), 'a,b');
    const again = await outgoingFile(work, 'data.csv', [work], LIMITS);
    if (!again.ok) throw new Error(again.error);
    await rm(join(work, 'data.csv'));
    await execa('mkfifo', [join(work, 'data.csv')]);
    const twice = [await bytesOf({ ...again, close: async () => {} }), await bytesOf(again)]; // a retried upload reads it all again
    expect(twice.map(String)).toEqual(['a,b', 'a,b']);
  });

  it('sends images as photos and the rest as documents; refuses what is outside, missing, a directory or empty', async () => {
    const work = join(dir.path, 'work');
    await mkdir(join(work, 'sub'), { recursive: true });
    await writeFile(join(work, 'chart.png'), 'png');
    await writeFile(join(work, 'patch.diff'), 'diff');
    await writeFile(join(work, 'empty.txt'), '');
    await writeFile(join(dir.path, 'secret.txt'), 'secret');
    await symlink(join(dir.path, 'secret.txt'), join(work, 'link.txt'));
    expect(await sent(outgoingFile(work, 'chart.png', [work], LIMITS))).toMatchObject({ ok: true, as: 'photo', bytes: 3 });
    expect(await sent(outgoingFile(work, join(work, 'patch.diff'), [work], LIMITS))).toMatchObject({ ok: true, as: 'document' });
    expect(await outgoingFile(work, '../secret.txt', [work], LIMITS)).toEqual({ ok: false, error: expect.stringMatching(/^\.\.\/secret\.txt is outside /) });
    expect(await outgoingFile(work, 'link.txt', [work], LIMITS)).toEqual({ ok: false, error: expect.stringMatching(/^link\.txt is outside /) });
    expect(await outgoingFile(work, 'nope.txt', [work], LIMITS)).toEqual({ ok: false, error: 'nope.txt does not exist.' });
    expect(await outgoingFile(work, 'sub', [work], LIMITS)).toEqual({ ok: false, error: 'sub is a directory: send the files in it, or an archive of it.' });
    expect(await outgoingFile(work, 'empty.txt', [work], LIMITS)).toEqual({ ok: false, error: 'empty.txt is empty.' });
    expect(await resolveTarget(work, 'sub', [work])).toEqual({ ok: true, path: join(work, 'sub'), directory: true });
  });

  it('zips a directory without its .git', async () => {
    const project = join(dir.path, 'project');
    await mkdir(join(project, 'src'), { recursive: true });
    await mkdir(join(project, '.git'), { recursive: true });
    await writeFile(join(project, 'src', 'a.ts'), 'export const a = 1;\n');
    await writeFile(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(project, '.env.example'), 'KEY=\n');
    const zip = await zipDirectory(project, join(dir.path, 'tmp'), { limit: LIMITS.uploadBytes });
    if (!zip.ok) throw new Error(zip.error);
    const bytes = await bytesOf(zip);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const text = bytes.toString('latin1');
    expect(text).toContain('src/a.ts');
    expect(text).toContain('.env.example');
    expect(text).not.toContain('HEAD');
  });

  it('leaves out named pipes, sockets and links leading outside, never opening them, and says which', async () => {
    const project = join(dir.path, 'project');
    await mkdir(join(project, 'src'), { recursive: true });
    await writeFile(join(project, 'src', 'a.ts'), 'export const a = 1;\n');
    await writeFile(join(dir.path, 'secret.txt'), 'not for the zip');
    await execa('mkfifo', [join(project, 'src', 'pipe')]);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(project, 'agent.sock'), resolve));
    await symlink(join(dir.path, 'secret.txt'), join(project, 'secret-link'));
    await symlink('src/a.ts', join(project, 'a-link'));
    try {
      expect(await outgoingFile(project, 'src/pipe', [project], LIMITS)).toEqual({
        ok: false,
        error: 'src/pipe is a named pipe: only files and directories are sent.',
      });
      const zip = await zipDirectory(project, join(dir.path, 'tmp'), { limit: LIMITS.uploadBytes });
      if (!zip.ok) throw new Error(zip.error);
      await zip.close();
      expect(zip.skipped).toEqual(['agent.sock (a socket)', 'secret-link (a link leading outside)', 'src/pipe (a named pipe)']);
      const text = (await readFile(zip.path)).toString('latin1');
      expect(text).toContain('src/a.ts');
      expect(text).toContain('a-link'); // kept as a link
      expect(text).not.toContain('not for the zip');
      expect(await outgoingFile(project, 'secret-link', [project], LIMITS)).toMatchObject({ ok: false, error: expect.stringMatching(/is outside/) });
    } finally {
      server.close();
    }
  });

  it('opens nothing through a folder that became a link out of the directory (a race with the check)', async () => {
    const work = join(dir.path, 'work');
    const outside = join(dir.path, 'outside');
    await mkdir(work);
    await mkdir(outside);
    await writeFile(join(outside, 'key.pem'), 'PRIVATE');
    await symlink(outside, join(work, 'swapped')); // as if `swapped` had been a real folder when it was checked
    const swapped = join(work, 'swapped', 'key.pem');
    // Not even to a file inside the place: the path opened is the one that was checked, or nothing.
    for (const root of [work, dir.path])
      expect(await openInPlace({ root }, [swapped])).toEqual([
        { path: swapped, refused: 'outside', why: `${swapped} leads elsewhere (to ${join(outside, 'key.pem')})` },
      ]);
    const [opened] = await openInPlace({ root: dir.path }, [join(outside, 'key.pem')]);
    expect(opened).toMatchObject({ path: join(outside, 'key.pem'), handle: expect.anything() });
    if (opened && 'handle' in opened) await opened.handle.close();
  });

  it('stops zipping when told to, leaving no partial archive', async () => {
    const big = join(dir.path, 'big');
    await mkdir(big);
    for (let i = 0; i < 20; i++) await writeFile(join(big, `noise-${i}.bin`), randomBytes(100_000));
    const tmp = join(dir.path, 'tmp');
    const controller = new AbortController();
    const zipping = zipDirectory(big, tmp, { limit: LIMITS.uploadBytes, signal: controller.signal });
    controller.abort(new Error('past its deadline'));
    await expect(zipping).rejects.toThrow();
    expect(await readdir(tmp).catch(() => [])).toEqual([]);
  });

  it('stops zipping past the limit and leaves no partial archive', async () => {
    const big = join(dir.path, 'big');
    await mkdir(big);
    for (let i = 0; i < 4; i++) await writeFile(join(big, `noise-${i}.bin`), randomBytes(200_000));
    const tmp = join(dir.path, 'tmp');
    expect(await zipDirectory(big, tmp, { limit: 300_000 })).toEqual({
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
