import type { FakeTelegram, RecordedCall } from '../support/fake-telegram/index.ts';
import { OWNER, type TelegramWorld } from '../support/telegram-world.ts';
import { TELLTALES } from './chat-inputs.ts';
import type { Expectation, Played } from './playback.ts';

/**
 * What must hold once a run's updates are in: each is answered or refused, or is of a silent
 * kind; no reply shows a bug (a stack line, a raw error, undefined, NaN, [object Object]);
 * nothing ran or was fetched for a stranger; the bridge is up and logged no error.
 */

const SENDS = new Set(['sendmessage', 'senddocument', 'sendphoto']);
const REFUSAL = /^⛔ Sorry, you are not allowed to use this bot\. Your user id is \d+;/;

/** The bot's successful sends, by the message they reply to (`chat:message`), read once each. */
class Replies {
  private read = 0;
  readonly byMessage = new Map<string, RecordedCall[]>();

  constructor(private readonly telegram: FakeTelegram) {}

  update(): this {
    const calls = this.telegram.calls;
    for (; this.read < calls.length; this.read++) {
      const call = calls[this.read]!;
      if (!SENDS.has(call.method.toLowerCase())) continue; // getUpdates among them, in flight for its long poll
      if (call.status === undefined) break; // still in flight: read it again next time
      if (!call.ok) continue;
      const to = (call.params.reply_parameters as { message_id?: number } | undefined)?.message_id;
      if (to === undefined) continue;
      const key = `${Number(call.params.chat_id)}:${to}`;
      this.byMessage.set(key, [...(this.byMessage.get(key) ?? []), call]);
    }
    return this;
  }

  to(chatId: number, messageId: number): RecordedCall[] {
    return this.byMessage.get(`${chatId}:${messageId}`) ?? [];
  }
}

/** What a reply says, its HTML markup left out. */
const textOf = (call: RecordedCall) =>
  (typeof (call.params.text ?? call.params.caption) === 'string' ? ((call.params.text ?? call.params.caption) as string) : '')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * How long a run's replies may take: Telegram lets a bot send a person a message a second and
 * a group twenty a minute, and a quick turn takes two or three (its progress, the answer in its
 * place, a queue notice), so the busiest chat sets the bound; the rest is slack for a loaded machine.
 */
export function boundMs(played: Played): number {
  const perChat = new Map<number, number>();
  for (const e of played.expectations) if (e.kind === 'reply' || e.kind === 'stranger') perChat.set(e.chatId, (perChat.get(e.chatId) ?? 0) + 3);
  const needed = [...perChat].map(([chatId, sends]) => (chatId > 0 ? sends * 1000 : Math.floor(sends / 20) * 60_000));
  return 30_000 + Math.max(0, ...needed);
}

/** Waits until every expectation of the run is met (or its bound passes), then lists what is wrong. */
export async function judge(world: TelegramWorld, played: Played, timeoutMs = boundMs(played)): Promise<string[]> {
  const { telegram } = world;
  const replies = new Replies(telegram);
  const answered = new Set<string>();
  const unmet = () => {
    replies.update();
    answerTheAgent(telegram, played, answered);
    return played.expectations.filter((e) => !met(e, replies, telegram, played));
  };
  await telegram.waitFor(() => unmet().length === 0, timeoutMs).catch(() => undefined);
  const problems = unmet().map(
    (e) => `not answered within ${timeoutMs / 1000} s: ${e.update}${e.kind === 'reply' ? `; the chat then held:\n${chatAfter(telegram, e)}` : ''}`,
  );

  for (const e of played.expectations) {
    if (e.kind === 'reply') {
      const wrongTopic = replies.to(e.chatId, e.messageId).filter((c) => c.params.message_thread_id !== e.threadId);
      if (wrongTopic.length) problems.push(`answered outside its topic (${String(wrongTopic[0]!.params.message_thread_id)}): ${e.update}`);
    }
    if (e.kind === 'stranger') {
      const answered = replies.to(e.chatId, e.messageId);
      if (answered.some((c) => !REFUSAL.test(textOf(c)))) problems.push(`a stranger got more than a refusal: ${textOf(answered[0]!)} for ${e.update}`);
    }
    if (e.kind === 'silent' && e.chatId !== undefined && e.messageId !== undefined && replies.to(e.chatId, e.messageId).length) {
      problems.push(`answered ${e.why}: ${e.update}`);
    }
  }
  for (const strangerId of new Set(played.expectations.flatMap((e) => (e.kind === 'stranger' ? [e.strangerId] : [])))) {
    const refusals = played.expectations.filter((e) => e.kind === 'stranger' && e.strangerId === strangerId && replies.to(e.chatId, e.messageId).length > 0);
    if (refusals.length !== 1) problems.push(`stranger ${strangerId} was refused ${refusals.length} times in one run (once per 10 minutes is right)`);
  }

  problems.push(...telltales(telegram, played), ...(await strangerWork(world, played)));
  const errors = world.bridge.logEntries().filter((entry) => entry.level === 'error' || entry.level === 'fatal');
  if (errors.length) problems.push(`the bridge logged errors:\n${errors.map((entry) => JSON.stringify(entry)).join('\n')}`);
  if (problems.length)
    problems.push(
      `the bridge's last warnings:\n${world.bridge
        .logEntries()
        .filter((e) => e.level !== 'info' && e.level !== 'debug')
        .slice(-30)
        .map((e) => JSON.stringify(e))
        .join('\n')}`,
    );
  return problems;
}

/**
 * The people in the chat answer what the agent asks (its plan after a random /plan, its
 * question): the first button of each, once, as a person would before long. Unanswered, the
 * turn waits out the approval timeout, longer than a run's bound, and so does the chat's queue.
 */
function answerTheAgent(telegram: FakeTelegram, played: Played, answered: Set<string>): void {
  for (const chatId of played.chats) {
    for (const message of telegram.botMessages(chatId)) {
      const key = `${chatId}:${message.messageId}`;
      if (answered.has(key) || !/^(📋 Plan\n|❓ )/.test(message.text ?? '')) continue;
      const first = message.buttons[0] as { callback_data?: string } | undefined;
      if (!first?.callback_data) continue;
      answered.add(key);
      telegram.pressButton({ chatId, messageId: message.messageId, data: first.callback_data, userId: chatId > 0 ? chatId : OWNER });
    }
  }
}

function met(e: Expectation, replies: Replies, telegram: FakeTelegram, played: Played): boolean {
  switch (e.kind) {
    case 'reply':
      return (
        replies.to(e.chatId, e.messageId).length > 0 ||
        (e.orStop !== undefined && replies.to(e.chatId, e.orStop).length > 0) ||
        // A message steered into the running turn: the bot marks it 👀, and that turn's answer is its answer.
        !!telegram.message(e.chatId, e.messageId)?.botReactions.length
      );
    case 'press':
      return telegram.callbackAnswers.some((a) => a.callbackQueryId === e.queryId && (!e.stranger || /Not allowed/.test(a.text ?? '')));
    case 'stranger':
      // Met once one of this stranger's messages is refused.
      return played.expectations.some((o) => o.kind === 'stranger' && o.strangerId === e.strangerId && replies.to(o.chatId, o.messageId).length > 0);
    case 'silent':
      return true;
  }
}

/** Bug telltales in anything the bot showed in the run's chats, edits and their earlier versions included, and in its answers to presses. */
function telltales(telegram: FakeTelegram, played: Played): string[] {
  const shown: string[] = [];
  for (const chatId of played.chats) {
    for (const message of telegram.botMessages(chatId)) {
      shown.push(message.text ?? '', message.caption ?? '', ...message.history.map((v) => v.content.text ?? v.content.caption ?? ''));
    }
  }
  shown.push(...telegram.callbackAnswers.map((a) => a.text ?? ''));
  return shown.filter((text) => TELLTALES.test(text)).map((text) => `a reply shows a bug: ${JSON.stringify(text.slice(0, 600))}`);
}

async function strangerWork(world: TelegramWorld, played: Played): Promise<string[]> {
  const problems: string[] = [];
  const prompts = (await world.cli.invocations()).map((i) => `${i.prompt} ${i.argv.join(' ')}`);
  for (const mark of played.strangerMarks) {
    if (!played.quoted.has(mark) && prompts.some((p) => p.includes(mark))) problems.push(`a CLI ran with a stranger's words (${mark})`);
  }
  const fetched = new Set(world.telegram.callsTo('getFile').map((c) => String(c.params.file_id)));
  for (const id of played.strangerFiles) if (fetched.has(id) && !played.quoted.has(id)) problems.push(`a stranger's file was fetched (${id})`);
  return problems;
}

/** The chat's messages from the unanswered one on, to see what became of it. */
function chatAfter(telegram: FakeTelegram, e: Expectation & { kind: 'reply' }): string {
  return telegram
    .messages(e.chatId)
    .filter((m) => m.messageId >= e.messageId)
    .slice(0, 15)
    .map(
      (m) => `  #${m.messageId} ${m.fromBot ? 'bot' : m.from.id} ↩${m.replyToMessageId ?? '-'}: ${JSON.stringify((m.text ?? m.caption ?? '').slice(0, 160))}`,
    )
    .join('\n');
}
