import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/create-app.ts';
import type { Attachment, Downloads, IncomingMessage } from '../../src/kernel/ports/chat.ts';
import { openApp } from '../support/app-world.ts';
import { fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { startMockTranscriber, type MockTranscriber } from '../support/mock-transcriber.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';
import { chat } from '../support/chats.ts';

// What the bridge does with files people send, over downloads served from memory (the
// Telegram side, getFile and the download itself, is tested against the fake Bot API).
let world: FakeCliWorld;
let out: RecordingOutbound;
let app: App;
let transcriber: MockTranscriber;
const served: Record<string, Buffer> = {};
const downloads: Downloads = {
  maxBytes: 20 * 1024 * 1024,
  download: async (attachment, path) => writeFile(path, served[attachment.id] ?? Buffer.alloc(0)),
};

async function open(env: Record<string, string> = {}) {
  app = await openApp(world, out, { env: { BRIDGE_ALLOWED_USERS: '1,2', ...env }, settings: { fileReminderSeconds: 1 }, downloads });
}
beforeEach(async () => {
  world = await fakeCliWorld();
  out = new RecordingOutbound();
  transcriber = await startMockTranscriber();
});
afterEach(async () => {
  await app.shutdown();
  await transcriber.close();
  await world.cleanup();
});

const CHAT = -1;
let nextMessageId = 100;
const send = (text: string, extra: Partial<IncomingMessage> = {}) =>
  app.bot.handleMessage({ address: chat(CHAT), user: { id: '1', name: 'Ada' }, text, messageId: String(nextMessageId++), ...extra });
const photo = (id: string, bytes = 'jpeg-bytes'): Attachment => {
  served[id] = Buffer.from(bytes);
  return { kind: 'photo', id, mimeType: 'image/jpeg', size: bytes.length };
};
const prompts = async () => (await world.invocations()).map((c) => c.prompt);
const inbox = (name: string) => join(world.dir, '.bridge', 'inbox', name);

describe('files sent to the chat', () => {
  it('a photo with a caption is a turn: the caption, then where the photo is', async () => {
    await open();
    await send('say:what is this error?', { attachments: [photo('p1', 'screenshot')] });
    await app.bot.idle();
    expect(await prompts()).toEqual([
      'say:what is this error?\n\n[The user sent this file with the message; open it to see what it holds:]\n- .bridge/inbox/photo.jpg (photo, 1 KB)',
    ]);
    expect(await readFile(inbox('photo.jpg'), 'utf8')).toBe('screenshot');
  });

  it('a file without words waits for the same user’s next message, and the chat is reminded once if it does not come', async () => {
    await open();
    await send('', { attachments: [{ ...photo('doc'), kind: 'document', fileName: 'build.log', mimeType: 'text/plain' }] });
    await expect
      .poll(() => out.textsTo(CHAT).find((t) => t.startsWith('📎')), { timeout: 5000 })
      .toBe('📎 build.log is saved in .bridge/inbox/. Your next message goes to the agent with it; say what to do.');
    expect(await prompts()).toEqual([]);
    await app.bot.handleMessage({ address: chat(CHAT), user: { id: '2', name: 'Bob' }, text: 'say:not mine' });
    await send('say:why did it fail?');
    await app.bot.idle();
    const [bob, ada] = await prompts();
    expect(bob).toBe('say:not mine');
    expect(ada).toMatch(/^say:why did it fail\?\n\n\[The user sent this file .*\]\n- \.bridge\/inbox\/build\.log \(document, text\/plain, 1 KB\)$/);
  });

  it('an album is one prompt, whichever part carries the caption', async () => {
    await open();
    await send('', { albumId: 'a1', attachments: [photo('a')] });
    await send('say:compare these', { albumId: 'a1', attachments: [photo('b')] });
    await send('', { albumId: 'a1', attachments: [photo('c')] });
    await expect.poll(prompts, { timeout: 5000 }).toHaveLength(1);
    const [prompt] = await prompts();
    expect(prompt).toMatch(/^say:compare these\n\n\[The user sent these 3 files/);
    expect(prompt).toContain('- .bridge/inbox/photo.jpg');
    expect(prompt).toContain('- .bridge/inbox/photo-3.jpg');
  });

  it('a voice note is transcribed, the transcript shown and made the prompt, with the recording', async () => {
    await open({ BRIDGE_TRANSCRIBE_URL: transcriber.url, BRIDGE_TRANSCRIBE_KEY: 'sk-voice' });
    transcriber.answer = { text: 'say:run the tests please' };
    served.v1 = Buffer.from('OggS');
    await send('', { attachments: [{ kind: 'voice', id: 'v1', mimeType: 'audio/ogg', size: 4, durationSeconds: 3 }] });
    await app.bot.idle();
    expect(out.textsTo(CHAT)).toContain('🎙 “say:run the tests please”');
    expect(await prompts()).toEqual([
      'say:run the tests please\n\n[The user sent this file with the message; open it to see what it holds:]\n- .bridge/inbox/voice.oga (voice note, 0:03, 1 KB)',
    ]);
    expect(transcriber.requests[0]).toMatchObject({ authorization: 'Bearer sk-voice', model: 'whisper-1', fileName: 'voice.oga', bytes: Buffer.from('OggS') });
  });

  it('without a transcription service, or when it fails, says so; the recording still goes to the agent with the next message', async () => {
    await open();
    served.v2 = Buffer.from('OggS');
    await send('', { attachments: [{ kind: 'voice', id: 'v2', mimeType: 'audio/ogg', durationSeconds: 2 }] });
    expect(out.textsTo(CHAT).at(-1)).toBe(
      '🎙 Voice messages are not transcribed here: the operator can set BRIDGE_TRANSCRIBE_URL to an OpenAI-compatible speech-to-text API. The recording is saved as .bridge/inbox/voice.oga; your next message goes to the agent with it.',
    );
    await send('say:here is my question');
    await app.bot.idle();
    expect((await prompts())[0]).toContain('- .bridge/inbox/voice.oga (voice note, 0:02, 1 KB)');
    await app.shutdown();

    await open({ BRIDGE_TRANSCRIBE_URL: transcriber.url });
    transcriber.answer = { status: 503, message: 'model overloaded' };
    await send('', { attachments: [{ kind: 'voice', id: 'v2', mimeType: 'audio/ogg' }] });
    expect(out.textsTo(CHAT).at(-1)).toBe(
      '🎙 The recording could not be transcribed: the transcription service answered HTTP 503: model overloaded. It is saved as .bridge/inbox/voice-2.oga; your next message goes to the agent with it.',
    );
  });

  it('a file too big for the Bot API is refused before fetching, with a clear message', async () => {
    await open();
    await send('say:look', { attachments: [{ kind: 'document', id: 'huge', fileName: 'dump.bin', size: 25 * 1024 * 1024 }] });
    await app.bot.idle();
    expect(out.textsTo(CHAT)).toContain(
      '⚠️ “dump.bin” could not be received: it is 25 MB, over the 20 MB a bot may download. Nothing of it was kept; send it again, or as a smaller file.',
    );
    expect(await prompts()).toEqual(['say:look']); // the words still reach the agent
  });

  it('/spawn replying to a file gives the run the file, by absolute path', async () => {
    await open();
    await send('/spawn "say:describe it"', { replyTo: { text: 'the failing build', attachments: [photo('r1', 'pixels')] } });
    await app.subagents.idle();
    const [run] = await prompts();
    expect(run).toContain('the failing build');
    expect(run).toContain(`- ${inbox('photo.jpg')} (photo, 1 KB)`);
    expect(await readFile(inbox('photo.jpg'), 'utf8')).toBe('pixels');
  });
});
