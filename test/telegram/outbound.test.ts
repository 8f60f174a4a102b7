import { Api } from 'grammy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bold, italic, plain } from '../../src/kernel/rich/index.ts';
import { TelegramOutbound } from '../../src/transports/telegram/outbound.ts';
import { telegramChat } from '../../src/transports/telegram/id.ts';
import { FakeTelegram } from '../support/fake-telegram/index.ts';
import { ChatUnreachableError } from '../../src/kernel/ports/chat.ts';

// The Outbound over grammY's real client and the fake Bot API: what it does with each of
// Telegram's refusals.
let telegram: FakeTelegram;
let out: TelegramOutbound;
const CHAT = -700;
const html = (text: string) => bold(text);
/** What Telegram answers to markup it cannot parse (the bridge's rich text never makes any, but Telegram may still refuse it). */
const refused = { code: 400, description: "Bad Request: can't parse entities: Unclosed start tag at byte offset 0" };

beforeEach(async () => {
  telegram = await FakeTelegram.start();
  out = new TelegramOutbound(new Api(telegram.token, { apiRoot: telegram.apiRoot }));
  telegram.sendText({ chatId: CHAT, userId: 1, text: 'hi', chatType: 'group' });
});
afterEach(() => telegram.close());

describe('the Telegram outbound', () => {
  it('sends HTML with buttons, in a topic, as a reply', async () => {
    const ref = await out.send(telegramChat(CHAT), html('hello'), { buttons: [[{ text: 'Stop', data: 'stop:1' }]], replyTo: '1' });
    const message = telegram.message(CHAT, Number(ref.messageId))!;
    expect(message).toMatchObject({ text: 'hello', parseMode: 'HTML', replyToMessageId: 1 });
    expect(message.buttons.map((b) => b.text)).toEqual(['Stop']);
  });

  it('treats "message is not modified" and a deleted message as done, not as errors', async () => {
    const buttons = [[{ text: 'Stop', data: 'stop:1' }]];
    const ref = await out.send(telegramChat(CHAT), html('same'), { buttons });
    await expect(out.edit(ref, html('same'), { buttons })).resolves.toBe(true);
    const edits = telegram.callsTo('editMessageText');
    expect(edits[0]!.error?.description).toMatch(/message is not modified/);
    await expect(out.edit({ ...telegramChat(CHAT), messageId: '999' }, html('gone'))).resolves.toBe(false); // gone: the caller may send anew
  });

  it('resends as plain text when the markup is refused, and when the formatted text is too long', async () => {
    telegram.failNext('sendMessage', refused);
    const ref = await out.send(telegramChat(CHAT), bold('unclosed'));
    expect(telegram.message(CHAT, Number(ref.messageId))).toMatchObject({ text: 'unclosed', parseMode: undefined });
    const long = 'x'.repeat(5000);
    const cut = await out.send(telegramChat(CHAT), plain(long));
    expect(telegram.message(CHAT, Number(cut.messageId))!.text).toHaveLength(4096);
  });

  it('edits with the plain text when the edited markup is refused', async () => {
    const ref = await out.send(telegramChat(CHAT), html('first'));
    telegram.failNext('editMessageText', refused);
    await out.edit(ref, italic('second'));
    expect(telegram.message(CHAT, Number(ref.messageId))!.text).toBe('second');
  });

  it('uploads a document with an HTML caption, falling back to a plain one', async () => {
    telegram.failNext('sendDocument', refused);
    const ref = await out.sendDocument(telegramChat(CHAT), { filename: 'answer.md', content: '# Title\n\nbody', caption: bold('preview') });
    const message = telegram.message(CHAT, Number(ref.messageId))!;
    expect(message.document).toMatchObject({ fileName: 'answer.md' });
    expect(message.document!.bytes.toString('utf8')).toBe('# Title\n\nbody');
    expect(message.caption).toBe('preview');
  });

  it('passes other errors up to the caller (the outbox retries them), a chat out of reach for good as such', async () => {
    telegram.failNext('sendMessage', { code: 500, description: 'Internal Server Error' });
    await expect(out.send(telegramChat(CHAT), html('x'))).rejects.toMatchObject({ error_code: 500 });
    telegram.failNext('sendMessage', { code: 403, description: 'Forbidden: bot was blocked by the user' });
    await expect(out.send(telegramChat(CHAT), html('x'))).rejects.toMatchObject({ name: 'ChatUnreachableError', cause: { error_code: 403 } });
  });

  it('a 429 pauses that chat for its retry_after, not the others; the message arrives once', async () => {
    const other = -701;
    telegram.sendText({ chatId: other, userId: 1, text: 'hi', chatType: 'group' });
    telegram.failNext('sendMessage', { code: 429, retryAfter: 2 }, { chatId: CHAT });
    const started = Date.now();
    const paused = out.send(telegramChat(CHAT), html('after the pause'));
    const next = out.send(telegramChat(CHAT), html('behind it'));
    const elsewhere = await out.send(telegramChat(other), html('meanwhile'));
    expect(telegram.message(other, Number(elsewhere.messageId))!.text).toBe('meanwhile');
    expect(telegram.botMessages(CHAT).map((m) => m.text)).toEqual([]); // still waiting out the 429
    await Promise.all([paused, next]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(telegram.botMessages(CHAT).map((m) => m.text)).toEqual(['after the pause', 'behind it']);
  });

  it('keeps a chat within the limits Telegram enforces: no 429, nothing lost, edits merged, answers first', async () => {
    const strict = await FakeTelegram.start({ floodLimits: true });
    try {
      const paced = new TelegramOutbound(new Api(strict.token, { apiRoot: strict.apiRoot }));
      const user = 4100; // a private chat: one call a second
      strict.sendText({ chatId: user, userId: user, text: 'hi' });
      const progress = await paced.send(telegramChat(user), html('working'));
      const edits = Array.from({ length: 10 }, (_, i) => paced.edit(progress, html(`step ${i + 1}`)));
      const answers = [1, 2, 3].map((i) => paced.send(telegramChat(user), html(`answer ${i}`)));
      await Promise.all([...edits, ...answers]);
      expect(strict.calls.filter((call) => call.status === 429)).toEqual([]);
      expect(strict.botMessages(user).map((m) => m.text)).toEqual(['step 10', 'answer 1', 'answer 2', 'answer 3']);
      expect(strict.callsTo('editMessageText').length).toBeLessThanOrEqual(2); // ten edits, merged while the answers went first
    } finally {
      await strict.close();
    }
  });

  it('sends a picture as a photo and replaces it with editMessageMedia, caption and all; "not modified" and a deleted message are no errors', async () => {
    const png = (n: number) => Buffer.from(`png-${n}`);
    const ref = await out.sendPicture(telegramChat(CHAT), { png: png(1), filename: 'graph.png', caption: bold('1/2 done') });
    const sent = telegram.message(CHAT, Number(ref.messageId))!;
    expect(sent).toMatchObject({ caption: '1/2 done', parseMode: 'HTML', media: { kind: 'photo', fileName: 'graph.png', bytes: png(1) } });

    await expect(out.editPicture(ref, { png: png(2), filename: 'graph.png', caption: plain('2/2 done') })).resolves.toBe(true);
    const edited = telegram.message(CHAT, Number(ref.messageId))!;
    expect(edited).toMatchObject({ caption: '2/2 done', editCount: 1, media: { kind: 'photo', bytes: png(2) } });
    expect(telegram.callsTo('editMessageMedia')[0]!.files).toEqual([{ field: expect.any(String), filename: 'graph.png', size: 5 }]);

    telegram.failNext('editMessageMedia', refused);
    await out.editPicture(ref, { png: png(3), filename: 'graph.png', caption: bold('again') });
    expect(telegram.message(CHAT, Number(ref.messageId))).toMatchObject({ caption: 'again', parseMode: undefined, media: { bytes: png(3) } });

    const notModified = 'Bad Request: message is not modified: specified new message content and reply markup are exactly the same';
    telegram.failNext('editMessageMedia', { code: 400, description: notModified });
    await expect(out.editPicture(ref, { png: png(3), filename: 'graph.png' })).resolves.toBe(true);
    await expect(out.editPicture({ ...telegramChat(CHAT), messageId: '999' }, { png: png(4), filename: 'graph.png' })).resolves.toBe(false);
    telegram.failNext('editMessageMedia', { code: 403, description: 'Forbidden: bot was kicked from the group chat' });
    // Said the core's way: the chat is out of reach for good, Telegram's answer its cause.
    const unreachable = out.editPicture(ref, { png: png(5), filename: 'graph.png' });
    await expect(unreachable).rejects.toBeInstanceOf(ChatUnreachableError);
    await expect(unreachable).rejects.toMatchObject({ message: 'Forbidden: bot was kicked from the group chat', cause: { error_code: 403 } });
    telegram.failNext('sendMessage', { code: 400, description: 'Bad Request: chat not found' });
    await expect(out.send(telegramChat(CHAT), plain('anyone?'))).rejects.toBeInstanceOf(ChatUnreachableError);
  });

  it('keeps pictures within the chat’s budget: a 429 waited out, waiting edits merged into the newest, the answers first', async () => {
    const strict = await FakeTelegram.start({ floodLimits: true });
    try {
      const paced = new TelegramOutbound(new Api(strict.token, { apiRoot: strict.apiRoot }));
      const user = 4200;
      strict.sendText({ chatId: user, userId: user, text: 'hi' });
      strict.failNext('sendPhoto', { code: 429, retryAfter: 1 });
      const picture = await paced.sendPicture(telegramChat(user), { png: Buffer.from('png-0'), filename: 'graph.png' });
      const edits = Array.from({ length: 6 }, (_, i) => paced.editPicture(picture, { png: Buffer.from(`png-${i + 1}`), filename: 'graph.png' }));
      const answer = paced.send(telegramChat(user), html('answer'));
      expect(await Promise.all(edits)).toEqual(Array(6).fill(true));
      await answer;
      expect(strict.calls.filter((call) => call.status === 429 && !call.injected)).toEqual([]);
      expect(strict.callsTo('sendPhoto').map((call) => call.status)).toEqual([429, 200]);
      expect(strict.callsTo('editMessageMedia').length).toBeLessThanOrEqual(2);
      const [photo, text] = strict.botMessages(user);
      expect(photo!.media!.bytes.toString()).toBe('png-6');
      expect(text!.text).toBe('answer');
      expect(strict.calls.findIndex((c) => c.method === 'sendMessage')).toBeLessThan(strict.calls.findLastIndex((c) => c.method === 'editMessageMedia'));
    } finally {
      await strict.close();
    }
  });
});
