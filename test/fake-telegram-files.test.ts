import { Api, GrammyError, InputFile } from 'grammy';
import type { Message } from 'grammy/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeTelegram } from './support/fake-telegram/index.ts';

// Files both ways, through grammY's real client over HTTP: what users send arrives with the
// Bot API's fields, getFile and the download serve it, and the bot's own uploads are kept.
const USER = 4242;
const GROUP = -77;
let fake: FakeTelegram;
let api: Api;

beforeEach(async () => {
  fake = await FakeTelegram.start();
  api = new Api(fake.token, { apiRoot: fake.apiRoot });
});
afterEach(() => fake.close());

async function updates(): Promise<Message[]> {
  return (await api.getUpdates({ timeout: 0 })).flatMap((u) => (u.message ? [u.message] : []));
}
const download = (path: string) => fetch(`${fake.apiRoot}/file/bot${fake.token}/${path}`);

describe('files users send', () => {
  it('arrive with the Bot API fields of their kind, and download byte for byte', async () => {
    fake.sendFile({
      chatId: USER,
      userId: USER,
      kind: 'document',
      bytes: Buffer.from('%PDF-1.7'),
      fileName: 'spec.pdf',
      mimeType: 'application/pdf',
      caption: 'read this',
    });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'photo', bytes: Buffer.from('jpeg!') });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'voice', bytes: Buffer.from('OggS'), duration: 4 });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'audio', bytes: Buffer.from('ID3'), fileName: 'talk.mp3', duration: 60 });
    fake.sendFile({ chatId: USER, userId: USER, kind: 'video_note', bytes: Buffer.from('mp4'), duration: 9 });
    const [document, photo, voice, audio, note] = await updates();
    expect(document).toMatchObject({ caption: 'read this', document: { file_name: 'spec.pdf', mime_type: 'application/pdf', file_size: 8 } });
    expect(photo!.photo).toHaveLength(3);
    expect(photo!.photo!.map((size) => size.width)).toEqual([90, 320, 1280]);
    expect(new Set(photo!.photo!.map((size) => size.file_id)).size).toBe(3);
    expect(voice).toMatchObject({ voice: { duration: 4, mime_type: 'audio/ogg', file_size: 4 } });
    expect(audio).toMatchObject({ audio: { duration: 60, file_name: 'talk.mp3', mime_type: 'audio/mpeg' } });
    expect(note).toMatchObject({ video_note: { duration: 9, length: 240 } });

    const file = await api.getFile(photo!.photo!.at(-1)!.file_id);
    expect(file).toMatchObject({ file_size: 5, file_path: expect.stringMatching(/^photos\/file_\d+\.jpg$/) });
    const response = await download(file.file_path!);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).toString()).toBe('jpeg!');
    expect((await api.getFile(voice!.voice!.file_id)).file_path).toMatch(/^voice\/file_\d+\.oga$/);
    expect(fake.callsTo('download').map((call) => call.status)).toEqual([200]);
  });

  it('albums share a media_group_id, and replies carry the replied-to file', async () => {
    const first = fake.sendFile({ chatId: GROUP, userId: USER, kind: 'photo', bytes: Buffer.from('a'), mediaGroupId: 'album-1', caption: 'both' });
    fake.sendFile({ chatId: GROUP, userId: USER, kind: 'photo', bytes: Buffer.from('b'), mediaGroupId: 'album-1' });
    fake.sendText({ chatId: GROUP, userId: USER, text: '/spawn "look"', replyTo: first.message_id });
    const [a, b, reply] = await updates();
    expect([a!.media_group_id, b!.media_group_id]).toEqual(['album-1', 'album-1']);
    expect(reply!.reply_to_message?.photo?.at(-1)?.file_id).toBe(a!.photo!.at(-1)!.file_id);
  });

  it('refuses getFile over 20 MB and for unknown ids, as the Bot API does', async () => {
    fake.sendFile({ chatId: USER, userId: USER, kind: 'document', bytes: Buffer.from('x'), fileName: 'dump.bin', declaredSize: 25 * 1024 * 1024 });
    const [big] = await updates();
    expect(big!.document!.file_size).toBe(25 * 1024 * 1024);
    await expect(api.getFile(big!.document!.file_id)).rejects.toMatchObject({ error_code: 400, description: 'Bad Request: file is too big' });
    await expect(api.getFile('nope')).rejects.toMatchObject({ error_code: 400, description: 'Bad Request: invalid file_id' });
    expect((await download('documents/file_99.bin')).status).toBe(404);
    expect((await fetch(`${fake.apiRoot}/file/botWRONG/documents/file_0.bin`)).status).toBe(404);
  });

  it('fails downloads on request: an error status, or a body cut off halfway', async () => {
    fake.sendFile({ chatId: USER, userId: USER, kind: 'document', bytes: Buffer.alloc(64 * 1024, 1), fileName: 'data.bin' });
    const [message] = await updates();
    const { file_path } = await api.getFile(message!.document!.file_id);
    fake.failNext('download', { code: 502 });
    expect((await download(file_path!)).status).toBe(502);
    fake.failNext('download', { networkDrop: true });
    const cut = await download(file_path!);
    expect(cut.headers.get('content-length')).toBe(String(64 * 1024));
    await expect(cut.arrayBuffer()).rejects.toThrow();
    expect(Buffer.from(await (await download(file_path!)).arrayBuffer()).length).toBe(64 * 1024);
  });
});

describe('files the bot sends', () => {
  it('sendPhoto keeps the photo and its caption; uploads over 50 MB are refused', async () => {
    fake.sendText({ chatId: USER, userId: USER, text: 'hi' });
    const sent = await api.sendPhoto(USER, new InputFile(Buffer.from('png-bytes'), 'chart.png'), { caption: '<b>chart</b>', parse_mode: 'HTML' });
    expect(sent.photo).toHaveLength(3);
    const view = fake.message(USER, sent.message_id)!;
    expect(view.caption).toBe('chart');
    expect(view.media).toMatchObject({ kind: 'photo', fileName: 'chart.png', bytes: Buffer.from('png-bytes') });
    const error = await api.sendDocument(USER, new InputFile(Buffer.alloc(51 * 1024 * 1024), 'huge.bin')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect(error).toMatchObject({ error_code: 413, description: 'Request Entity Too Large' });
  });
});
