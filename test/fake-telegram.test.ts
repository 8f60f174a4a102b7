import { autoRetry } from '@grammyjs/auto-retry';
import { run, type RunnerHandle } from '@grammyjs/runner';
import { Api, Bot, GrammyError, HttpError, InlineKeyboard, InputFile } from 'grammy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeTelegram } from './support/fake-telegram/index.ts';

// The fake is only worth something if the real client accepts it, so every test below talks to
// it through grammY over HTTP: a running bot (runner + auto-retry) or grammY's Api client.

const USER = 4242; // a private chat's id is its user's id
const FORUM = -1001234567890;
const NOT_MODIFIED =
  'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';

let fake: FakeTelegram;
let runner: RunnerHandle | undefined;
let botErrors: unknown[];

beforeEach(async () => {
  fake = await FakeTelegram.start();
  botErrors = [];
});

afterEach(async () => {
  if (runner?.isRunning()) await runner.stop();
  runner = undefined;
  await fake.close();
  expect(botErrors).toEqual([]);
});

/** A long-polling bot as production runs it: grammY runner plus the auto-retry transformer. */
function startBot(setup: (bot: Bot) => void): Bot {
  const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
  bot.api.config.use(autoRetry());
  bot.catch((error) => void botErrors.push(error.error));
  setup(bot);
  runner = run(bot);
  return bot;
}

/** grammY's API client alone, for asserting on individual calls. */
function client(options: { retry?: boolean } = {}): Api {
  const api = new Api(fake.token, { apiRoot: fake.apiRoot });
  if (options.retry ?? true) api.config.use(autoRetry());
  return api;
}

/** A user writes first, as only then may a bot message them. */
function openPrivateChat(): void {
  fake.sendText({ chatId: USER, userId: USER, text: 'hi', firstName: 'Ada' });
}

describe('fake Telegram with a running grammY bot', () => {
  it('delivers user messages as updates and records the bot reply', async () => {
    startBot((bot) =>
      bot.on('message:text', async (ctx) => {
        await ctx.replyWithChatAction('typing');
        await ctx.reply(`echo: ${ctx.message.text}`, { reply_parameters: { message_id: ctx.message.message_id } });
      }),
    );
    const sent = fake.sendText({ chatId: USER, userId: USER, text: 'hello <world>', firstName: 'Ada' });

    const reply = await fake.waitForBotMessage(USER);
    expect(reply).toMatchObject({ text: 'echo: hello <world>', replyToMessageId: sent.message_id, fromBot: true });
    expect(reply.messageId).toBe(sent.message_id + 1);
    expect(reply.raw.chat).toEqual({ id: USER, type: 'private', first_name: 'Ada' });
    expect(reply.raw.from).toEqual({ id: 123456789, is_bot: true, first_name: 'Fake Bot', username: 'fake_test_bot' });
    expect(fake.messages(USER).map((m) => [m.fromBot, m.text])).toEqual([
      [false, 'hello <world>'],
      [true, 'echo: hello <world>'],
    ]);
    expect(fake.callsTo('getMe')).toHaveLength(1);
    expect(fake.callsTo('sendChatAction')[0]).toMatchObject({ status: 200, params: { chat_id: USER, action: 'typing' } });
    // The runner's next poll confirms the update through its offset.
    await fake.waitFor(() => fake.pendingUpdates === 0);
  });

  it('retries a 429 through auto-retry after retry_after, and the message arrives once', async () => {
    fake.failNext('sendMessage', { code: 429, retryAfter: 1 });
    startBot((bot) => bot.on('message:text', (ctx) => ctx.reply('pong')));
    fake.sendText({ chatId: USER, userId: USER, text: 'ping' });

    await fake.waitForCall('sendMessage', (c) => c.status === 200, 5000);
    const [refused, accepted, ...more] = fake.callsTo('sendMessage');
    expect(refused).toMatchObject({
      status: 429,
      injected: true,
      error: { error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } },
    });
    expect(accepted).toMatchObject({ status: 200, ok: true, injected: false });
    expect(more).toEqual([]);
    expect((accepted?.time ?? 0) - (refused?.time ?? 0)).toBeGreaterThanOrEqual(950);
    expect(fake.botMessages(USER)).toHaveLength(1);
  });

  it('routes /commands through bot_command entities and records setMyCommands', async () => {
    startBot((bot) => bot.command('start', (ctx) => ctx.reply(`welcome to a ${ctx.chat.type}`)));
    const api = client();
    await api.setMyCommands([{ command: 'start', description: 'Start the bridge' }]);
    expect(fake.commands).toEqual([{ command: 'start', description: 'Start the bridge' }]);
    await expect(api.getMyCommands()).resolves.toEqual([{ command: 'start', description: 'Start the bridge' }]);
    await expect(api.setMyCommands([{ command: 'Start-Now', description: 'x' }])).rejects.toMatchObject({
      description: 'Bad Request: BOT_COMMAND_INVALID',
    });

    fake.sendText({ chatId: FORUM, userId: USER, text: '/start@fake_test_bot' });
    const reply = await fake.waitForBotMessage(FORUM);
    expect(reply.text).toBe('welcome to a supergroup');
  });

  it('delivers a button press to a callbackQuery handler and records the answer', async () => {
    startBot((bot) => {
      bot.command('menu', (ctx) => ctx.reply('Pick one', { reply_markup: new InlineKeyboard().text('Yes', 'pick:yes').text('No', 'pick:no') }));
      bot.callbackQuery(/^pick:(.+)$/, async (ctx) => {
        await ctx.answerCallbackQuery({ text: `You chose ${ctx.match[1]}` });
        await ctx.editMessageText(`Chosen: ${ctx.match[1]}`);
      });
    });
    fake.sendText({ chatId: USER, userId: USER, text: '/menu' });
    const menu = await fake.waitForBotMessage(USER, (m) => m.buttons.length === 2);
    expect(() => fake.pressButton({ chatId: USER, messageId: menu.messageId, userId: USER, data: 'pick:maybe' })).toThrow(
      /no button with callback_data "pick:maybe"/,
    );

    const query = fake.pressButton({ chatId: USER, messageId: menu.messageId, userId: USER, data: 'pick:yes' });
    await fake.waitFor(() => fake.message(USER, menu.messageId)?.text === 'Chosen: yes');
    expect(fake.callbackAnswers).toEqual([expect.objectContaining({ callbackQueryId: query.id, data: 'pick:yes', text: 'You chose yes', showAlert: false })]);
    // editMessageText without reply_markup removes the keyboard, as Telegram does.
    const edited = fake.message(USER, menu.messageId);
    expect(edited).toMatchObject({ editCount: 1, replyMarkup: undefined, buttons: [] });
    expect(edited?.history[0]?.content.text).toBe('Pick one');
    await expect(client().answerCallbackQuery(query.id)).rejects.toMatchObject({
      description: 'Bad Request: query is too old and response timeout expired or query ID is invalid',
    });
  });

  it('receives a multipart document upload with its bytes, file name, caption and topic', async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
    startBot((bot) =>
      bot.command('report', (ctx) =>
        ctx.replyWithDocument(new InputFile(bytes, 'report; final.bin'), {
          caption: '<b>Report</b> ready',
          parse_mode: 'HTML',
        }),
      ),
    );
    fake.sendText({ chatId: FORUM, userId: USER, text: '/report', threadId: 7 });

    const doc = await fake.waitForBotMessage(FORUM, (m) => m.document !== undefined);
    expect(doc.document?.fileName).toBe('report; final.bin');
    expect(doc.document?.bytes.equals(bytes)).toBe(true);
    expect(doc).toMatchObject({
      threadId: 7,
      caption: 'Report ready',
      source: '<b>Report</b> ready',
      parseMode: 'HTML',
      entities: [{ type: 'bold', offset: 0, length: 6 }],
    });
    expect(doc.raw).toMatchObject({
      is_topic_message: true,
      message_thread_id: 7,
      reply_to_message: { message_id: 7, forum_topic_created: {} },
      document: { file_name: 'report; final.bin', file_size: 70_000 },
    });
    const upload = fake.callsTo('sendDocument')[0];
    expect(upload?.files).toEqual([{ field: expect.any(String), filename: 'report; final.bin', size: 70_000 }]);
    expect(upload?.params).toMatchObject({ document: expect.stringMatching(/^attach:\/\//), message_thread_id: 7 });
  });

  it('answers a held long poll within ~100 ms of sendText, not at its timeout', async () => {
    startBot((bot) => bot.on('message', () => {}));
    const poll = await fake.waitFor(() => fake.callsTo('getUpdates').find((c) => c.status === undefined && c.params.timeout === 30));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(poll.status).toBeUndefined(); // really held

    const sentAt = Date.now();
    fake.sendText({ chatId: USER, userId: USER, text: 'wake up' });
    await fake.waitFor(() => poll.status === 200, 1000);
    expect(Date.now() - sentAt).toBeLessThan(100);
    expect(poll.result).toEqual([expect.objectContaining({ message: expect.objectContaining({ text: 'wake up' }) })]);
  });

  it('stops the runner cleanly and leaves no open handles after close()', async () => {
    // Only the shared fake's listening socket should be open, once earlier tests' sockets closed.
    await waitUntilTrue(() => sameHandles(openHandles(), ['TCPServerWrap']), 2000);
    const baseline = openHandles();
    expect(baseline).toEqual(['TCPServerWrap']);
    const own = await FakeTelegram.start();
    const bot = new Bot(own.token, { client: { apiRoot: own.apiRoot } });
    bot.api.config.use(autoRetry());
    const handle = run(bot);
    await own.waitFor(() => own.callsTo('getUpdates').some((c) => c.status === undefined));

    expect(openHandles().filter((h) => h === 'TCPSocketWrap').length).toBeGreaterThan(0); // the probe sees them
    await handle.stop();
    expect(handle.isRunning()).toBe(false);
    // The aborted poll ends on the server too, without an answer.
    await own.waitFor(() => own.callsTo('getUpdates').every((c) => c.status === 0), 1000);
    await own.close();
    await waitUntilTrue(() => sameHandles(openHandles(), baseline), 1000);
    expect(openHandles()).toEqual(baseline);
  });
});

describe('fake Telegram validation, as seen by grammY', () => {
  it('refuses an edit that changes nothing, and edits of foreign or unknown messages', async () => {
    openPrivateChat();
    const api = client();
    const keyboard = new InlineKeyboard().text('Stop', 'stop');
    const sent = await api.sendMessage(USER, '<b>status</b>', { parse_mode: 'HTML', reply_markup: keyboard });

    const error: unknown = await api
      .editMessageText(USER, sent.message_id, '<b>status</b>', { parse_mode: 'HTML', reply_markup: keyboard })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect(error).toMatchObject({ error_code: 400, description: NOT_MODIFIED, method: 'editMessageText' });
    await expect(api.editMessageReplyMarkup(USER, sent.message_id, { reply_markup: keyboard })).rejects.toMatchObject({
      description: NOT_MODIFIED,
    });

    fake.sendText({ chatId: 777, userId: 777, text: 'another chat' });
    await expect(api.editMessageText(777, sent.message_id, 'x')).rejects.toMatchObject({
      description: 'Bad Request: message to edit not found',
    });
    await expect(api.editMessageText(USER, 1, 'x')).rejects.toMatchObject({
      description: "Bad Request: message can't be edited",
    });
    expect(fake.message(USER, sent.message_id)).toMatchObject({ editCount: 0, text: 'status' });
  });

  it('measures length on visible UTF-16 text and refuses empty, too long or malformed texts', async () => {
    openPrivateChat();
    const api = client();
    const tooLong = { error_code: 400, description: 'Bad Request: message is too long' };
    await expect(api.sendMessage(USER, 'x'.repeat(4097))).rejects.toMatchObject(tooLong);
    await expect(api.sendMessage(USER, '😀'.repeat(2049))).rejects.toMatchObject(tooLong); // 4098 code units
    const fits = await api.sendMessage(USER, `<b>${'&lt;'.repeat(4096)}</b>`, { parse_mode: 'HTML' });
    expect(fits.text).toBe('<'.repeat(4096));

    await expect(api.sendMessage(USER, '')).rejects.toMatchObject({ description: 'Bad Request: message text is empty' });
    await expect(api.sendMessage(USER, '<b>bold', { parse_mode: 'HTML' })).rejects.toMatchObject({
      description: 'Bad Request: can\'t parse entities: Can\'t find end tag corresponding to start tag "b"',
    });
    await expect(api.sendMessage(USER, '<blink>x</blink>', { parse_mode: 'HTML' })).rejects.toMatchObject({
      description: 'Bad Request: can\'t parse entities: Unsupported start tag "blink" at byte offset 0',
    });
    await expect(api.sendMessage(USER, 'v1.2', { parse_mode: 'MarkdownV2' })).rejects.toMatchObject({
      description: "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
    });
    await expect(api.sendDocument(USER, new InputFile(Buffer.from('x'), 'a.txt'), { caption: 'c'.repeat(1025) })).rejects.toMatchObject({
      description: 'Bad Request: message caption is too long',
    });

    const source = '<b>bold</b> &amp; <a href="https://example.com">link</a>';
    const html = await api.sendMessage(USER, source, { parse_mode: 'HTML' });
    expect(fake.message(USER, html.message_id)).toMatchObject({
      text: 'bold & link',
      source,
      entities: [
        { type: 'bold', offset: 0, length: 4 },
        { type: 'text_link', offset: 7, length: 4, url: 'https://example.com/' },
      ],
    });
    expect(fake.botMessages(USER)).toHaveLength(2);
  });

  it('refuses unknown chats, topics and tokens, invalid buttons, and honours deletion rules', async () => {
    openPrivateChat();
    const api = client();
    await expect(api.sendMessage(999, 'hi')).rejects.toMatchObject({ description: 'Bad Request: chat not found' });
    await expect(api.sendMessage(USER, 'hi', { message_thread_id: 3 })).rejects.toMatchObject({
      description: 'Bad Request: message thread not found',
    });
    const longData = { inline_keyboard: [[{ text: 'b', callback_data: 'é'.repeat(33) }]] }; // 66 bytes
    await expect(api.sendMessage(USER, 'x', { reply_markup: longData })).rejects.toMatchObject({
      description: 'Bad Request: BUTTON_DATA_INVALID',
    });
    await expect(api.sendChatAction(USER, 'dancing' as 'typing')).rejects.toMatchObject({
      description: 'Bad Request: wrong parameter action in request',
    });
    await expect(new Api('1:wrong-token-00000000000000000000000', { apiRoot: fake.apiRoot }).getMe()).rejects.toMatchObject({
      error_code: 401,
      description: 'Unauthorized',
    });

    const sent = await api.sendMessage(USER, 'to be deleted');
    await expect(api.deleteMessage(USER, sent.message_id)).resolves.toBe(true);
    expect(fake.message(USER, sent.message_id)?.deleted).toBe(true);
    expect(fake.botMessages(USER)).toEqual([]);
    await expect(api.deleteMessage(USER, sent.message_id)).rejects.toMatchObject({
      description: 'Bad Request: message to delete not found',
    });
  });

  it('injects network drops (before and after processing) and 5xx answers', async () => {
    openPrivateChat();
    const api = client({ retry: false }); // auto-retry would back off 3 s on these

    fake.failNext('sendMessage', { networkDrop: true });
    await expect(api.sendMessage(USER, 'lost')).rejects.toBeInstanceOf(HttpError);
    fake.failNext('sendMessage', { networkDrop: true, afterProcessing: true });
    await expect(api.sendMessage(USER, 'sent, but the answer was lost')).rejects.toBeInstanceOf(HttpError);
    expect(fake.botMessages(USER).map((m) => m.text)).toEqual(['sent, but the answer was lost']);

    fake.failNext('sendMessage', { code: 502 }, { times: 2 });
    await expect(api.sendMessage(USER, 'z')).rejects.toMatchObject({ error_code: 502, description: 'Bad Gateway' });
    await expect(api.sendMessage(USER, 'z')).rejects.toMatchObject({ error_code: 502 });
    await expect(api.sendMessage(USER, 'z')).resolves.toMatchObject({ text: 'z' });
    expect(fake.callsTo('sendMessage').map((c) => c.status)).toEqual([0, 0, 502, 502, 200]);
  });

  it('keeps updates until an offset confirms them, and 409s an older concurrent poll', async () => {
    fake.sendText({ chatId: USER, userId: USER, text: 'one' });
    fake.sendText({ chatId: USER, userId: USER, text: 'two' });
    const api = client();
    const first = await api.getUpdates({ timeout: 0 });
    expect(first.map((u) => u.message?.text)).toEqual(['one', 'two']);
    await expect(api.getUpdates({ timeout: 0 })).resolves.toEqual(first); // not confirmed yet
    await expect(api.getUpdates({ offset: (first[1]?.update_id ?? 0) + 1, timeout: 0 })).resolves.toEqual([]);
    expect(fake.pendingUpdates).toBe(0);

    const older = fetch(`${fake.url}/getUpdates?timeout=5`).then((r) => r.json());
    await fake.waitFor(() => fake.callsTo('getUpdates').some((c) => c.status === undefined));
    const newer = await fetch(`${fake.url}/getUpdates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timeout: 0 }),
    }).then((r) => r.json());
    expect(await older).toEqual({
      ok: false,
      error_code: 409,
      description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
    });
    expect(newer).toEqual({ ok: true, result: [] });
  });

  it('passes on what a modified client sends: any entities, blank text, replies to gone messages, made-up presses, edits', async () => {
    fake.sendText({ chatId: USER, userId: USER, text: 'hi' });
    const odd = [{ type: 'bot_command' as const, offset: 40, length: 9 }];
    fake.forgeText({ chatId: USER, userId: USER, text: ' \n', entities: odd, replyTo: 777 });
    fake.forgeButtonPress({ chatId: USER, userId: USER, messageId: 1, data: 'no such button' });
    fake.editText({ chatId: USER, userId: USER, messageId: 1, text: 'hi there' });
    const updates = await client().getUpdates({ timeout: 0, allowed_updates: ['message', 'edited_message', 'callback_query'] });
    expect(updates.map(({ update_id: _, ...u }) => u)).toMatchObject([
      { message: { text: 'hi' } },
      { message: { text: ' \n', entities: odd, reply_to_message: { message_id: 777, date: 0 } } },
      { callback_query: { data: 'no such button', message: { message_id: 1 } } },
      { edited_message: { message_id: 1, text: 'hi there' } },
    ]);
    expect(() => fake.editText({ chatId: USER, userId: 1, messageId: 1, text: 'not mine' })).toThrow('editText: user 1 has no message 1');
  });

  it('explains a waitFor timeout with the recent calls', async () => {
    openPrivateChat();
    await client().sendMessage(USER, 'something else');
    await expect(fake.waitForBotMessage(USER, (m) => m.text === 'never', 50)).rejects.toThrow(/timed out after 50 ms[\s\S]*sendMessage -> 200/);
  });
});

function openHandles(): string[] {
  return process
    .getActiveResourcesInfo()
    .filter((r) => r.startsWith('TCP') || r === 'Timeout')
    .sort();
}

function sameHandles(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((r, i) => r === b[i]);
}

async function waitUntilTrue(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}
