import { mkdir, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockTranscriber, type MockTranscriber } from '../support/mock-transcriber.ts';
import { OWNER, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Files through Telegram, both ways: the bridge as a real process fetching with getFile from
// the fake Bot API, and sending with sendDocument and sendPhoto.
let world: TelegramWorld;
let transcriber: MockTranscriber;
beforeAll(async () => {
  transcriber = await startMockTranscriber();
  world = await startTelegramWorld({ BRIDGE_TRANSCRIBE_URL: transcriber.url });
});
afterAll(async () => {
  await world.stop();
  await transcriber.close();
});

let nextChat = -1900;
const newChat = () => nextChat--;
const sendFile = (chat: number, options: Omit<Parameters<TelegramWorld['telegram']['sendFile']>[0], 'chatId' | 'userId'>) =>
  world.telegram.sendFile({ chatId: chat, userId: OWNER, chatType: 'group', firstName: 'Ada', ...options });
const say = (chat: number, text: string) => world.telegram.sendText({ chatId: chat, userId: OWNER, text, chatType: 'group', firstName: 'Ada' });
const answer = (chat: number, pattern: RegExp) =>
  world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => pattern.test(m.text ?? m.caption ?? '')), 20_000);
const promptOf = async (start: string) => (await world.cli.invocations()).find((c) => c.prompt.startsWith(start))?.prompt;
const inbox = () => join(world.workdir, '.bridge', 'inbox');

describe('files sent to the chat', () => {
  it('a captioned screenshot reaches the agent as a file in the inbox, byte for byte', async () => {
    const chat = newChat();
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from(' screenshot bytes')]);
    sendFile(chat, { kind: 'photo', bytes: jpeg, caption: 'say:error-explained' });
    await answer(chat, /^error-explained/);
    expect(await promptOf('say:error-explained')).toMatch(/\n- \.bridge\/inbox\/photo\.jpg \(photo, 1 KB\)$/);
    expect(await readFile(join(inbox(), 'photo.jpg'))).toEqual(jpeg);
  });

  it('too big, or cut off mid-download: the chat is told why, and nothing half-written is kept', async () => {
    const chat = newChat();
    sendFile(chat, { kind: 'document', bytes: Buffer.from('x'), fileName: 'core.dump', declaredSize: 25 * 1024 * 1024 });
    await answer(chat, /^⚠️ “core\.dump” could not be received: it is 25 MB, over the 20 MB a bot may download\./);
    world.telegram.failNext('download', { networkDrop: true });
    sendFile(chat, { kind: 'document', bytes: Buffer.alloc(256 * 1024, 7), fileName: 'trace.bin', caption: 'say:trace-checked' });
    await answer(chat, /^⚠️ “trace\.bin” could not be received: the download broke off/);
    await answer(chat, /^trace-checked/); // the words still go through
    expect((await readdir(inbox())).filter((name) => name.startsWith('trace') || name.startsWith('core') || name.startsWith('.partial'))).toEqual([]);
  });

  it('a voice message is transcribed, shown, and made the prompt', async () => {
    const chat = newChat();
    transcriber.answer = { text: 'say:deployed' };
    sendFile(chat, { kind: 'voice', bytes: Buffer.from('OggS voice'), duration: 5 });
    await answer(chat, /^🎙 “say:deployed”$/);
    await answer(chat, /^deployed/);
    expect(await promptOf('say:deployed')).toMatch(/\n- \.bridge\/inbox\/voice(-\d+)?\.oga \(voice note, 0:05, 1 KB\)$/);
    expect(transcriber.requests.at(-1)).toMatchObject({ model: 'whisper-1', bytes: Buffer.from('OggS voice') });
  });

  it('a round video message is a video note to the agent, and one that cannot be fetched is named so', async () => {
    const chat = newChat();
    sendFile(chat, { kind: 'video_note', bytes: Buffer.from('ftyp round'), duration: 9 });
    say(chat, 'say:watched'); // the chat's messages are handled in order: this one takes the video
    await answer(chat, /^watched/);
    expect(await promptOf('say:watched')).toMatch(/\n- \.bridge\/inbox\/video-note(-\d+)?\.mp4 \(video note, 0:09, 1 KB\)$/);
    sendFile(chat, { kind: 'video_note', bytes: Buffer.from('x'), declaredSize: 25 * 1024 * 1024 });
    await answer(chat, /^⚠️ The video message could not be received: it is 25 MB, over the 20 MB a bot may download\./);
  });

  it('/spawn replying to a file gives the run the file', async () => {
    const chat = newChat();
    const log = sendFile(chat, { kind: 'document', bytes: Buffer.from('ERROR at line 3'), fileName: 'build.log', mimeType: 'text/plain' });
    world.telegram.sendText({ chatId: chat, userId: OWNER, text: '/spawn "say:triaged"', chatType: 'group', firstName: 'Ada', replyTo: log.message_id });
    await answer(chat, /^✅ #1 /);
    expect(await promptOf('say:triaged')).toContain(`${join(inbox(), 'build')}`);
  });
});

describe('/file get', () => {
  it('sends a file as a document, an image as a photo, and a directory as a zip; refuses a way out', async () => {
    const chat = newChat();
    await mkdir(join(world.workdir, 'out', 'charts'), { recursive: true });
    await writeFile(join(world.workdir, 'out', 'report.md'), '# Report\n');
    await writeFile(join(world.workdir, 'out', 'charts', 'cpu.png'), 'png-bytes');
    say(chat, '/file get out/report.md');
    const doc = await world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => m.document?.fileName === 'report.md'));
    expect(doc.document!.bytes.toString()).toBe('# Report\n');
    say(chat, '/file get out/charts/cpu.png');
    const photo = await world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => m.media?.kind === 'photo'));
    expect(photo.media!.bytes.toString()).toBe('png-bytes');
    say(chat, '/file get out');
    const zip = await world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => m.document?.fileName === 'out.zip'));
    expect(zip.document!.bytes.subarray(0, 2).toString()).toBe('PK');
    await expect.poll(() => readdir(join(world.dataDir, 'tmp'))).toEqual([]); // the zip goes once sent
    say(chat, '/file get ../../etc/passwd');
    await answer(chat, /^⚠️ \.\.\/\.\.\/etc\/passwd is outside /);
    say(chat, '/file');
    await answer(chat, /^⚠️ Say which file: \/file get <path>/);
  });
});

describe('/file get and what it never touches', () => {
  it('zips a directory holding a named pipe and a socket at once, saying what it left out, and refuses a link out of the roots', async () => {
    const chat = newChat();
    const piped = join(world.workdir, 'piped');
    await mkdir(piped, { recursive: true });
    await writeFile(join(piped, 'notes.txt'), 'notes');
    await execa('mkfifo', [join(piped, 'pipe')]);
    const socket: Server = createServer();
    await new Promise<void>((resolve) => socket.listen(join(piped, 'agent.sock'), resolve));
    await writeFile(join(world.dataDir, 'private.txt'), 'the bridge’s own');
    await symlink(join(world.dataDir, 'private.txt'), join(world.workdir, 'way-out'));
    try {
      say(chat, '/file get piped');
      const zip = await world.telegram.waitFor(() => world.telegram.botMessages(chat).find((m) => m.document?.fileName === 'piped.zip'), 20_000);
      expect(zip.caption).toBe('Left out of the zip (2):\n• agent.sock (a socket)\n• pipe (a named pipe)');
      expect(zip.document!.bytes.toString('latin1')).toContain('notes.txt');
      say(chat, '/file get piped/pipe');
      await answer(chat, /^⚠️ piped\/pipe is a named pipe: only files and directories are sent\./);
      say(chat, '/file get way-out');
      await answer(chat, /^⚠️ way-out is outside /);
    } finally {
      socket.close();
    }
  });

  it('a repository shipping .bridge/inbox -> ../../elsewhere: nothing is saved there, the chat is told, and the sweeper leaves it alone', async () => {
    const chat = newChat();
    const repo = join(world.workdir, 'shipped', 'repo');
    const elsewhere = join(world.workdir, 'shipped', 'elsewhere');
    await mkdir(join(repo, '.bridge'), { recursive: true });
    await mkdir(elsewhere, { recursive: true });
    await writeFile(join(elsewhere, 'old-work.txt'), 'a week old and precious');
    const weekAgo = new Date(Date.now() - 8 * 86_400_000);
    await utimes(join(elsewhere, 'old-work.txt'), weekAgo, weekAgo);
    await symlink('../../elsewhere', join(repo, '.bridge', 'inbox'));
    say(chat, '/cd shipped/repo');
    await answer(chat, /shipped\/repo/);
    sendFile(chat, { kind: 'document', bytes: Buffer.from('hello'), fileName: 'notes.txt', caption: 'say:read-it' });
    await answer(chat, /^⚠️ “notes\.txt” could not be received: this chat's inbox: \.bridge\/inbox leads outside .*move \.bridge\/inbox out of the way/);
    await answer(chat, /^read-it/); // the words still reach the agent
    expect(await readdir(elsewhere)).toEqual(['old-work.txt']);

    // The sweeper runs at start, over every chat's directory (this one's included).
    await world.restart();
    await world.bridge.waitForLog(/an inbox was not swept: .*shipped\/repo: \.bridge\/inbox leads outside/);
    expect(await readFile(join(elsewhere, 'old-work.txt'), 'utf8')).toBe('a week old and precious');
  });
});
