import { autoRetry } from '@grammyjs/auto-retry';
import { run, type RunnerHandle } from '@grammyjs/runner';
import { Api, Bot, GrammyError, InlineKeyboard, InputFile } from 'grammy';
import type { Message } from 'grammy/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeTelegram } from './support/fake-telegram/index.ts';

// Files both ways, through grammY's real client over HTTP: what users send arrives with the
// Bot API's fields, getFile and the download serve it, and the bot's own uploads are kept.
const USER = 4242;
const GROUP = -77;
const FORUM = -1001234567890;
const MB = 1024 * 1024;
let fake: FakeTelegram;
let api: Api;
let runner: RunnerHandle | undefined;

beforeEach(async () => {
  fake = await FakeTelegram.start();
  api = new Api(fake.token, { apiRoot: fake.apiRoot });
});
afterEach(async () => {
  if (runner?.isRunning()) await runner.stop();
  runner = undefined;
  await fake.close();
});

async function updates(): Promise<Message[]> {
  return (await api.getUpdates({ timeout: 0 })).flatMap((u) => (u.message ? [u.message] : []));
}
const download = (path: string, init?: RequestInit) => fetch(`${fake.apiRoot}/file/bot${fake.token}/${path}`, init);
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe('files users send', () => {
  it('arrive with the Bot API fields of their kind, and download byte for byte', async () => {
    fake.sendFile({
      chatId: USER,
      userId: USER,
      kind: 'document',
      bytes: Buffer.from('%PDF-1.7'),
      fileName: 'spec.pdf',
      mimeType: 'application/pdf',
      caption: 'read https://example.com',
    });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'photo', bytes: Buffer.from('jpeg!') });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'voice', bytes: Buffer.from('OggS'), duration: 4 });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'audio', bytes: Buffer.from('ID3'), fileName: 'talk.mp3', duration: 60 });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'video', bytes: Buffer.from('ftyp'), fileName: 'clip.mp4', duration: 12 });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'video_note', bytes: Buffer.from('mp4'), duration: 9 });
    const [document, photo, voice, audio, video, note] = await updates();
    expect(document).toMatchObject({
      caption: 'read https://example.com',
      caption_entities: [{ type: 'url', offset: 5, length: 19 }],
      document: { file_name: 'spec.pdf', mime_type: 'application/pdf', file_size: 8, file_id: expect.any(String), file_unique_id: expect.any(String) },
    });
    expect(document!.text).toBeUndefined();
    expect(photo!.photo).toHaveLength(3);
    expect(photo!.photo!.map((size) => size.width)).toEqual([90, 320, 1280]);
    expect(new Set(photo!.photo!.map((size) => size.file_id)).size).toBe(3);
    expect(new Set(photo!.photo!.map((size) => size.file_unique_id)).size).toBe(3);
    expect(photo!.caption).toBeUndefined();
    expect(voice).toMatchObject({ voice: { duration: 4, mime_type: 'audio/ogg', file_size: 4 } });
    expect(audio).toMatchObject({ audio: { duration: 60, file_name: 'talk.mp3', mime_type: 'audio/mpeg', file_size: 3 } });
    expect(video).toMatchObject({
      video: { duration: 12, file_name: 'clip.mp4', mime_type: 'video/mp4', width: expect.any(Number), height: expect.any(Number) },
    });
    expect(note).toMatchObject({ video_note: { duration: 9, length: 240, file_size: 3 } });
    // Telegram's file_ids start with their type; the bridge never relies on it, but nothing may confuse them.
    expect([document!.document!.file_id, photo!.photo![0]!.file_id, voice!.voice!.file_id].map((id) => id.slice(0, 4))).toEqual(['BQAC', 'AgAC', 'AwAC']);

    const file = await api.getFile(photo!.photo!.at(-1)!.file_id);
    expect(file).toMatchObject({ file_size: 5, file_path: expect.stringMatching(/^photos\/file_\d+\.jpg$/) });
    const response = await download(file.file_path!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('5');
    expect((await bytesOf(response)).toString()).toBe('jpeg!');
    // The smaller sizes are files of their own, serving the same bytes here.
    const thumbnail = await api.getFile(photo!.photo![0]!.file_id);
    expect(thumbnail.file_path).not.toBe(file.file_path);
    expect((await bytesOf(await download(thumbnail.file_path!))).toString()).toBe('jpeg!');
    expect(fake.callsTo('download').map((call) => call.status)).toEqual([200, 200]);
  });

  it('keeps each kind in its own folder, with the file_path Telegram would give', async () => {
    fake.sendFile({ chatId: USER, userId: USER, kind: 'document', bytes: Buffer.from('png'), fileName: 'shot.PNG', mimeType: 'image/png' });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'document', bytes: Buffer.from('make'), fileName: 'Makefile' });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'voice', bytes: Buffer.from('OggS'), mimeType: 'audio/ogg' });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'audio', bytes: Buffer.from('OggS'), fileName: 'song.ogg', mimeType: 'audio/ogg' });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'video', bytes: Buffer.from('ftyp') });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'video_note', bytes: Buffer.from('ftyp') });
    const messages = await updates();
    const ids = messages.map((m) => (m.document ?? m.voice ?? m.audio ?? m.video ?? m.video_note)!.file_id);
    const paths = await Promise.all(ids.map(async (id) => (await api.getFile(id)).file_path));
    expect(paths.map((path) => path!.replace(/file_\d+/, 'file_N'))).toEqual([
      'documents/file_N.png', // an image sent as a file stays a document
      'documents/file_N.bin',
      'voice/file_N.oga',
      'music/file_N.ogg', // audio/ogg, but audio: not a voice note
      'videos/file_N.mp4',
      'video_notes/file_N.mp4',
    ]);
    expect(new Set(paths).size).toBe(paths.length);
    // Asking again gives the same path.
    await expect(api.getFile(ids[0]!)).resolves.toMatchObject({ file_path: paths[0] });
  });

  it('albums share a media_group_id, and replies carry the replied-to file', async () => {
    const first = fake.sendFile({ chatId: GROUP, userId: USER, kind: 'photo', bytes: Buffer.from('a'), mediaGroupId: 'album-1', caption: 'both' });
    fake.sendFile({ chatId: GROUP, userId: USER, kind: 'video', bytes: Buffer.from('b'), mediaGroupId: 'album-1' });
    fake.sendText({ chatId: GROUP, userId: USER, text: '/spawn "look"', replyTo: first.message_id });
    const [a, b, reply] = await updates();
    expect([a!.media_group_id, b!.media_group_id]).toEqual(['album-1', 'album-1']);
    expect([a!.caption, b!.caption]).toEqual(['both', undefined]);
    expect(b!.message_id).toBe(a!.message_id + 1);
    expect(reply!.reply_to_message?.photo?.at(-1)?.file_id).toBe(a!.photo!.at(-1)!.file_id);
  });

  it('land in forum topics and reply to messages as texts do', async () => {
    const question = fake.sendText({ chatId: FORUM, userId: USER, text: 'which log?', threadId: 5 });
    fake.sendFile({ chatId: FORUM, userId: USER, kind: 'document', bytes: Buffer.from('log'), fileName: 'a.log', replyTo: question.message_id });
    fake.sendFile({ chatId: FORUM, userId: USER, kind: 'voice', bytes: Buffer.from('OggS'), threadId: 5 });
    const [, reply, voice] = await updates();
    expect(reply).toMatchObject({ message_thread_id: 5, is_topic_message: true, reply_to_message: { message_id: question.message_id, text: 'which log?' } });
    expect(voice).toMatchObject({ message_thread_id: 5, reply_to_message: { message_id: 5, forum_topic_created: {} } });
    // What a test reads: name, type, bytes and reported size of the file.
    expect(fake.message(FORUM, reply!.message_id)?.document).toEqual({
      fileId: reply!.document!.file_id,
      fileName: 'a.log',
      mimeType: 'application/octet-stream',
      bytes: Buffer.from('log'),
      fileSize: 3,
    });
    expect(fake.message(FORUM, voice!.message_id)?.media).toMatchObject({ kind: 'voice', bytes: Buffer.from('OggS') });
  });

  it('throws on files no Telegram client could send', () => {
    const user = { chatId: GROUP, userId: USER };
    expect(() => fake.sendFile({ ...user, kind: 'document', bytes: Buffer.alloc(0) })).toThrow(/do not send empty files/);
    expect(() => fake.sendFile({ ...user, kind: 'photo', bytes: Buffer.from('x'), fileName: 'cat.png' })).toThrow(/photo has no file name/);
    expect(() => fake.sendFile({ ...user, kind: 'video_note', bytes: Buffer.from('x'), mimeType: 'video/webm' })).toThrow(/no mime_type/);
    expect(() => fake.sendFile({ ...user, kind: 'document', bytes: Buffer.from('x'), duration: 3 })).toThrow(/document has no duration/);
    expect(() => fake.sendFile({ ...user, kind: 'document', bytes: Buffer.from('xyz'), declaredSize: 2 })).toThrow(/at least bytes.length/);
    expect(() => fake.sendFile({ ...user, kind: 'document', bytes: Buffer.from('x'), replyTo: 99 })).toThrow(/message 99 does not exist/);
    expect(() => fake.sendFile({ ...user, kind: 'voice', bytes: Buffer.from('x'), mediaGroupId: 'v' })).toThrow(/voice cannot be part of an album/);

    fake.sendFile({ ...user, kind: 'photo', bytes: Buffer.from('x'), mediaGroupId: 'g' });
    expect(() => fake.sendFile({ ...user, kind: 'document', bytes: Buffer.from('x'), mediaGroupId: 'g' })).toThrow(
      /holds photos and videos; a document cannot join it/,
    );
    expect(() => fake.sendFile({ ...user, userId: 7, kind: 'photo', bytes: Buffer.from('x'), mediaGroupId: 'g' })).toThrow(/sent by user 4242/);
    fake.sendText({ ...user, text: 'in between' });
    expect(() => fake.sendFile({ ...user, kind: 'photo', bytes: Buffer.from('x'), mediaGroupId: 'g' })).toThrow(/an album's messages arrive together/);
  });

  it('refuses getFile over 20 MB, and for missing or unknown ids, as the Bot API does', async () => {
    fake.sendFile({ chatId: USER, userId: USER, kind: 'document', bytes: Buffer.from('x'), fileName: 'dump.bin', declaredSize: 25 * MB });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'document', bytes: Buffer.from('y'), fileName: 'edge.bin', declaredSize: 20 * MB });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'photo', bytes: Buffer.from('z'), declaredSize: 21 * MB });
    const [big, edge, photo] = await updates();
    expect(big!.document!.file_size).toBe(25 * MB);
    expect(fake.message(USER, big!.message_id)?.document?.fileSize).toBe(25 * MB);
    await expect(api.getFile(big!.document!.file_id)).rejects.toMatchObject({ error_code: 400, description: 'Bad Request: file is too big' });
    await expect(api.getFile(edge!.document!.file_id)).resolves.toMatchObject({ file_size: 20 * MB }); // 20 MB exactly is allowed
    // Only the largest size of a photo is that big; its thumbnails still download.
    expect(photo!.photo!.map((size) => size.file_size)).toEqual([1, 1, 21 * MB]);
    await expect(api.getFile(photo!.photo!.at(-1)!.file_id)).rejects.toMatchObject({ description: 'Bad Request: file is too big' });
    await expect(api.getFile(photo!.photo![0]!.file_id)).resolves.toMatchObject({ file_size: 1 });

    await expect(api.getFile('nope')).rejects.toMatchObject({ error_code: 400, description: 'Bad Request: invalid file_id' });
    await expect(api.getFile('')).rejects.toMatchObject({ error_code: 400, description: 'Bad Request: file_id not specified' });
    expect((await download('documents/file_99.bin')).status).toBe(404);
    const { file_path } = await api.getFile(edge!.document!.file_id);
    expect((await fetch(`${fake.apiRoot}/file/botWRONG/${file_path}`)).status).toBe(404);
    expect((await download(`${file_path}%`)).status).toBe(404);
  });

  it('fails downloads on request: an error status, a cut-off body, a hang, or only one file', async () => {
    fake.sendFile({ chatId: USER, userId: USER, kind: 'document', bytes: Buffer.alloc(64 * 1024, 1), fileName: 'data.bin' });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'voice', bytes: Buffer.from('OggS') });
    const [data, voice] = await updates();
    const { file_path } = await api.getFile(data!.document!.file_id);
    fake.failNext('download', { code: 502 });
    const failed = await download(file_path!);
    expect(failed.status).toBe(502);
    expect(await failed.json()).toEqual({ ok: false, error_code: 502, description: 'Bad Gateway' });

    fake.failNext('download', { networkDrop: true });
    const cut = await download(file_path!);
    expect(cut.headers.get('content-length')).toBe(String(64 * 1024));
    await expect(cut.arrayBuffer()).rejects.toThrow();

    fake.failNext('download', { hang: true });
    await expect(download(file_path!, { signal: AbortSignal.timeout(200) })).rejects.toThrow();

    // A fault aimed at one file by its path leaves the others alone.
    const voicePath = (await api.getFile(voice!.voice!.file_id)).file_path!;
    fake.failNext('download', { code: 500 }, { text: /^voice\// });
    expect((await bytesOf(await download(file_path!))).length).toBe(64 * 1024);
    expect((await download(voicePath)).status).toBe(500);
    expect((await bytesOf(await download(voicePath))).toString()).toBe('OggS');

    await fake.waitFor(() => fake.callsTo('download').every((call) => call.status !== undefined));
    expect(fake.callsTo('download').map((call) => [call.status, call.injected])).toEqual([
      [502, true],
      [0, true],
      [0, true],
      [200, false],
      [500, true],
      [200, false],
    ]);
  });
});

describe('files the bot sends', () => {
  it('sendPhoto keeps the photo in sizes of their own, with caption, topic, reply and keyboard', async () => {
    const question = fake.sendText({ chatId: FORUM, userId: USER, text: 'chart?', threadId: 3 });
    const sent = await api.sendPhoto(FORUM, new InputFile(Buffer.from('png-bytes'), 'chart.png'), {
      caption: '<b>chart</b>',
      parse_mode: 'HTML',
      message_thread_id: 3,
      reply_parameters: { message_id: question.message_id },
      reply_markup: new InlineKeyboard().text('Again', 'again'),
    });
    expect(sent.photo).toHaveLength(3);
    expect(new Set(sent.photo.map((size) => size.file_id)).size).toBe(3);
    expect(sent).toMatchObject({
      caption: 'chart',
      caption_entities: [{ type: 'bold', offset: 0, length: 5 }],
      message_thread_id: 3,
      reply_to_message: { message_id: question.message_id },
      reply_markup: { inline_keyboard: [[{ text: 'Again', callback_data: 'again' }]] },
    });
    const view = fake.message(FORUM, sent.message_id)!;
    expect(view).toMatchObject({ caption: 'chart', source: '<b>chart</b>', parseMode: 'HTML', threadId: 3, fromBot: true });
    expect(view.media).toMatchObject({ kind: 'photo', fileName: 'chart.png', bytes: Buffer.from('png-bytes'), fileSize: 9 });
    expect(fake.callsTo('sendPhoto')[0]?.files).toEqual([{ field: expect.any(String), filename: 'chart.png', size: 9 }]);

    // Re-sent by file_id, it is the same photo; and it downloads as the JPEG Telegram made of it.
    const again = await api.sendPhoto(FORUM, sent.photo[0]!.file_id, { message_thread_id: 3 });
    expect(again.photo.map((size) => size.file_id)).toEqual(sent.photo.map((size) => size.file_id));
    const file = await api.getFile(sent.photo.at(-1)!.file_id);
    expect(file.file_path).toMatch(/^photos\/file_\d+\.jpg$/);
    expect((await bytesOf(await download(file.file_path!))).toString()).toBe('png-bytes');
  });

  it('refuses empty or missing files, and a file_id of the wrong kind', async () => {
    fake.sendText({ chatId: USER, userId: USER, text: 'hi' });
    const badRequest = (description: string) => ({ error_code: 400, description: `Bad Request: ${description}` });
    await expect(api.sendPhoto(USER, new InputFile(Buffer.alloc(0), 'empty.jpg'))).rejects.toMatchObject(badRequest('file must be non-empty'));
    await expect(api.sendDocument(USER, new InputFile(Buffer.alloc(0), 'empty.txt'))).rejects.toMatchObject(badRequest('file must be non-empty'));
    await expect(api.sendPhoto(USER, '')).rejects.toMatchObject(badRequest('there is no photo in the request'));
    await expect(api.sendPhoto(USER, 'AgACunknown')).rejects.toMatchObject(badRequest('wrong file identifier/HTTP URL specified'));

    const document = await api.sendDocument(USER, new InputFile(Buffer.from('text'), 'notes.txt'));
    const photo = await api.sendPhoto(USER, new InputFile(Buffer.from('jpeg'), 'cat.jpg'));
    await expect(api.sendPhoto(USER, document.document.file_id)).rejects.toMatchObject(badRequest('type of file mismatch'));
    await expect(api.sendDocument(USER, photo.photo.at(-1)!.file_id)).rejects.toMatchObject(badRequest('type of file mismatch'));
    // The same document by file_id is the same file.
    const resent = await api.sendDocument(USER, document.document.file_id, { caption: 'again' });
    expect(resent.document).toEqual(document.document);
    expect(fake.botMessages(USER).map((m) => m.document?.fileName ?? m.media?.kind)).toEqual(['notes.txt', 'photo', 'notes.txt']);
  });

  it('refuses uploads over 50 MB with 413, records the call, and keeps serving', async () => {
    fake.sendText({ chatId: USER, userId: USER, text: 'hi' });
    const error = await api.sendDocument(USER, new InputFile(Buffer.alloc(51 * MB), 'huge.bin')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect(error).toMatchObject({ error_code: 413, description: 'Request Entity Too Large' });
    await expect(api.sendPhoto(USER, new InputFile(Buffer.alloc(51 * MB), 'huge.jpg'))).rejects.toMatchObject({ error_code: 413 });
    expect(fake.callsTo('sendDocument').map((call) => call.status)).toEqual([413]);
    expect(fake.callsTo('sendPhoto')[0]?.error).toEqual({ ok: false, error_code: 413, description: 'Request Entity Too Large' });
    expect(fake.botMessages(USER)).toEqual([]);
    // Just under the limit goes through.
    const fits = await api.sendDocument(USER, new InputFile(Buffer.alloc(49 * MB, 2), 'big.bin'));
    expect(fits.document?.file_size).toBe(49 * MB);
  });
});

describe('editMessageMedia', () => {
  it('replaces a photo with a new upload and caption, keeps the old one in the history, and answers "not modified" to the same again', async () => {
    fake.sendText({ chatId: USER, userId: USER, text: 'graph?' });
    const sent = await api.sendPhoto(USER, new InputFile(Buffer.from('first-png'), 'graph.png'), {
      caption: 'step 1',
      reply_markup: new InlineKeyboard().text('Stop', 'stop'),
    });
    const edited = (await api.editMessageMedia(USER, sent.message_id, {
      type: 'photo',
      media: new InputFile(Buffer.from('second-png'), 'graph.png'),
      caption: '<b>step 2</b>',
      parse_mode: 'HTML',
    })) as Message.PhotoMessage;
    expect(edited).toMatchObject({ message_id: sent.message_id, caption: 'step 2', caption_entities: [{ type: 'bold', offset: 0, length: 6 }] });
    expect(edited.edit_date).toBeGreaterThan(0);
    expect(edited.photo.at(-1)!.file_id).not.toBe(sent.photo.at(-1)!.file_id);
    // The upload came as a part of the multipart body, named by the InputMedia's attach://.
    const call = fake.callsTo('editMessageMedia')[0]!;
    expect(call.files).toEqual([{ field: expect.any(String), filename: 'graph.png', size: 10 }]);
    const sentMedia = typeof call.params.media === 'string' ? (JSON.parse(call.params.media) as { media: string }) : (call.params.media as { media: string });
    expect(sentMedia.media).toBe(`attach://${call.files[0]!.field}`);

    const view = fake.message(USER, sent.message_id)!;
    expect(view).toMatchObject({ caption: 'step 2', source: '<b>step 2</b>', editCount: 1, replyMarkup: undefined });
    expect(view.media).toMatchObject({ kind: 'photo', bytes: Buffer.from('second-png') });
    expect(view.history).toHaveLength(1);
    expect(view.history[0]).toMatchObject({ kind: 'media', content: { caption: 'step 1' } });
    expect(view.history[0]!.media?.files.at(-1)?.bytes).toEqual(Buffer.from('first-png'));
    // Its new file downloads.
    const file = await api.getFile(edited.photo.at(-1)!.file_id);
    expect((await bytesOf(await download(file.file_path!))).toString()).toBe('second-png');

    // The same photo (by its file_id) with the same caption is no change; a new caption is.
    const same = { type: 'photo' as const, media: edited.photo[0]!.file_id, caption: '<b>step 2</b>', parse_mode: 'HTML' as const };
    await expect(api.editMessageMedia(USER, sent.message_id, same)).rejects.toMatchObject({
      error_code: 400,
      description: expect.stringMatching(/^Bad Request: message is not modified/),
    });
    await api.editMessageMedia(USER, sent.message_id, { ...same, caption: 'step 3' });
    expect(fake.message(USER, sent.message_id)).toMatchObject({ caption: 'step 3', editCount: 2 });
  });

  it('turns a text message into a document, and refuses what Telegram refuses', async () => {
    const question = fake.sendText({ chatId: GROUP, userId: USER, text: 'notes?' });
    const text = await api.sendMessage(GROUP, 'working…');
    const edited = (await api.editMessageMedia(GROUP, text.message_id, {
      type: 'document',
      media: new InputFile(Buffer.from('# notes'), 'notes.md'),
    })) as Message.DocumentMessage;
    expect(edited).toMatchObject({ document: { file_name: 'notes.md', mime_type: 'text/markdown' } });
    expect(edited).not.toHaveProperty('text');
    expect(fake.message(GROUP, text.message_id)).toMatchObject({ text: undefined, caption: '', history: [{ kind: 'media', content: { text: 'working…' } }] });

    const badRequest = (description: string) => ({ error_code: 400, description: `Bad Request: ${description}` });
    const media = (fields: Record<string, unknown>) =>
      fetch(`${fake.url}/editMessageMedia`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: GROUP, message_id: text.message_id, ...fields }),
      }).then((response) => response.json());
    expect(await media({})).toMatchObject({ ok: false, ...badRequest("can't parse input media JSON object") });
    expect(await media({ media: { type: 'photo' } })).toMatchObject(badRequest("can't parse InputMedia: Media is not specified"));
    expect(await media({ media: { type: 'sticker', media: 'x' } })).toMatchObject(badRequest("can't parse InputMedia: media type is not specified or invalid"));
    expect(await media({ media: { type: 'photo', media: 'attach://nothing' } })).toMatchObject(badRequest('wrong file identifier/HTTP URL specified'));
    // A document's file_id is no photo.
    expect(await media({ media: { type: 'photo', media: edited.document.file_id } })).toMatchObject(badRequest('type of file mismatch'));
    expect(await media({ message_id: 999, media: { type: 'document', media: edited.document.file_id, caption: 'x' } })).toMatchObject(
      badRequest('message to edit not found'),
    );
    expect(await media({ message_id: question.message_id, media: { type: 'document', media: edited.document.file_id } })).toMatchObject(
      badRequest("message can't be edited"),
    );
    expect(fake.message(GROUP, text.message_id)?.editCount).toBe(1);
  });
});

describe('files with a running bot', () => {
  it('a bot gets the user’s file with getFile, downloads it, and answers with a photo of it', async () => {
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    bot.api.config.use(autoRetry());
    const errors: unknown[] = [];
    bot.catch((error) => void errors.push(error.error));
    bot.on('message:document', async (ctx) => {
      const file = await ctx.getFile();
      const response = await fetch(`${fake.apiRoot}/file/bot${fake.token}/${file.file_path}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      await ctx.replyWithPhoto(new InputFile(bytes, 'preview.png'), {
        caption: `${ctx.message.document.file_name}: ${bytes.length} bytes`,
        reply_parameters: { message_id: ctx.message.message_id },
      });
    });
    runner = run(bot);

    const image = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
    const sent = fake.sendFile({ chatId: USER, userId: USER, kind: 'document', bytes: image, fileName: 'scan.png', mimeType: 'image/png' });
    const reply = await fake.waitForBotMessage(USER, (m) => m.media?.kind === 'photo');
    expect(reply).toMatchObject({ caption: 'scan.png: 3000 bytes', replyToMessageId: sent.message_id });
    expect(reply.media?.bytes.equals(image)).toBe(true);
    expect(fake.callsTo('getFile')[0]).toMatchObject({ status: 200, result: { file_path: expect.stringMatching(/^documents\/file_\d+\.png$/) } });
    expect(fake.callsTo('download')[0]).toMatchObject({ status: 200, result: { bytes: 3000 } });
    expect(errors).toEqual([]);
  });
});
