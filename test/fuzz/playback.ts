import type { FakeTelegram } from '../support/fake-telegram/index.ts';
import type { ChatInput, Place, Target, Update } from './chat-inputs.ts';

/**
 * Plays generated updates into the fake Bot API, all queued at once (the bridge takes them in
 * batches through getUpdates), and says for each what must come of it. Allowed users are a
 * fixed few, so their private chats carry state from run to run; strangers, groups and forums
 * are new in every run, so each run's refusals can be counted.
 */

export const BOT_USERNAME = 'bridge_test_bot';

/** What must come of one update. */
export type Expectation =
  /** A bot message replying to it, in its chat and topic; for a turn stopped before it began, the answer to that /stop will do. */
  | { kind: 'reply'; chatId: number; messageId: number; threadId: number | undefined; update: string; orStop?: number }
  /** A stranger's message: one per stranger and run is refused, the rest get nothing. */
  | { kind: 'stranger'; strangerId: number; chatId: number; messageId: number; update: string }
  /** A press: answered (an alert for a stranger). */
  | { kind: 'press'; queryId: string; stranger: boolean; update: string }
  /** Documented silence: a command for another bot (which must get nothing), an edit (the bot does not subscribe to them). */
  | { kind: 'silent'; why: string; update: string; chatId?: number; messageId?: number };

export interface Played {
  readonly expectations: Expectation[];
  /** Every chat the run touched. */
  readonly chats: Set<number>;
  /** A mark in every stranger's text, which must never reach a CLI. */
  readonly strangerMarks: string[];
  /** file_ids of files strangers sent, which must never be fetched. */
  readonly strangerFiles: string[];
  /** Marks and files of strangers' messages that an allowed user replied to: theirs to pass on. */
  readonly quoted: Set<string>;
}

export function play(telegram: FakeTelegram, allowed: readonly number[], run: number, updates: readonly Update[]): Played {
  const played: Played = { expectations: [], chats: new Set(), strangerMarks: [], strangerFiles: [], quoted: new Set() };
  // Files sent without words wait for the sender's next message in that chat (a command does not take them).
  const held = new Map<string, Sender>();
  // Turns a /stop in their chat (or topic) may answer for.
  const turns = new Map<string, (Expectation & { kind: 'reply' })[]>();
  for (const [index, update] of updates.entries()) {
    const userId = update.from.stranger ? 900_000_000 + run * 100 + update.from.slot : allowed[update.from.slot % allowed.length]!;
    const where = placeOf(update.place, userId, run);
    const mark = update.from.stranger ? ` zq${userId}x${index}qz` : '';
    if (mark) played.strangerMarks.push(mark.trim());
    const expectation = post(telegram, { userId, firstName: update.from.stranger ? 'Eve' : 'Ada', ...where }, update.input, mark, played);
    if (!expectation) continue;
    played.chats.add(where.chatId);
    const described = JSON.stringify({ ...update, userId, ...where });
    if (expectation === 'silent-edit') played.expectations.push({ kind: 'silent', why: 'an edit', update: described });
    else if ('queryId' in expectation)
      played.expectations.push({ kind: 'press', queryId: expectation.queryId, stranger: update.from.stranger, update: described });
    // Another bot's command is not handed on at all, whoever sent it: a stranger is not refused for it.
    else if (forAnotherBot(deliveredText(telegram, where.chatId, expectation.messageId)))
      played.expectations.push({ kind: 'silent', why: 'a command for another bot', update: described, chatId: where.chatId, messageId: expectation.messageId });
    else if (update.from.stranger)
      played.expectations.push({ kind: 'stranger', strangerId: userId, chatId: where.chatId, messageId: expectation.messageId, update: described });
    else {
      const text = deliveredText(telegram, where.chatId, expectation.messageId);
      const words = text.trim();
      const address = `${where.chatId}:${where.threadId}`;
      if (update.input.kind === 'file' && (!words || isCommand(text))) held.set(`${address}:${userId}`, { userId, firstName: 'Ada', ...where });
      if (update.input.kind === 'text' && words && !isCommand(text)) held.delete(`${address}:${userId}`);
      if (update.input.kind === 'file' && !words) {
        played.expectations.push({ kind: 'silent', why: 'a file without words: the next message takes it', update: described });
      } else {
        const reply = { kind: 'reply' as const, chatId: where.chatId, messageId: expectation.messageId, threadId: where.threadId, update: described };
        played.expectations.push(reply);
        if (words && !isCommand(text)) turns.set(address, [...(turns.get(address) ?? []), reply]);
      }
      if (/^\/stop(@\w+)?(\s|$)/i.test(text)) {
        for (const turn of turns.get(address) ?? []) turn.orStop = expectation.messageId;
        turns.delete(address);
      }
    }
  }
  for (const who of held.values()) {
    const { message_id: messageId } = telegram.forgeText({ ...who, text: 'What is in the file?' });
    played.expectations.push({
      kind: 'reply',
      chatId: who.chatId,
      messageId,
      threadId: who.threadId,
      update: `the words for a file sent without them: ${JSON.stringify(who)}`,
    });
  }
  return played;
}

const isCommand = (text: string) => /^\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]{3,64})?(?=\s|$)/.test(text);

interface Where {
  chatId: number;
  threadId?: number;
}

function placeOf(place: Place, userId: number, run: number): Where {
  if (place.kind === 'private') return { chatId: userId };
  if (place.kind === 'group') return { chatId: -(100_000 + run * 100 + place.group) };
  // Topic ids far apart, so that no message of the forum ever takes the id of a topic yet to open.
  return { chatId: -1_000_000_000_000 - (run * 100 + place.group), threadId: (3 - place.topic) * 1_000_000 };
}

type Sender = Where & { userId: number; firstName: string };

function post(
  telegram: FakeTelegram,
  who: Sender,
  input: ChatInput,
  mark: string,
  played: Played,
): { messageId: number } | { queryId: string } | 'silent-edit' | undefined {
  switch (input.kind) {
    case 'text': {
      const replyTo = targetIn(telegram, who, input.replyTo);
      const replied = replyTo === undefined ? undefined : telegram.message(who.chatId, replyTo);
      if (!mark && replied) {
        for (const quoted of `${replied.text ?? ''}${replied.caption ?? ''}`.match(/zq\d+x\d+qz/g) ?? []) played.quoted.add(quoted);
        for (const file of [replied.document?.fileId, replied.media?.fileId]) if (file) played.quoted.add(file);
      }
      const text = mark ? input.text.slice(0, 4000) + mark : input.text;
      return { messageId: telegram.forgeText({ ...who, text, entities: input.entities, ...(replyTo !== undefined && { replyTo }) }).message_id };
    }
    case 'file': {
      const caption = input.caption === undefined ? (mark ? mark.trim() : undefined) : input.caption.slice(0, 1000) + mark;
      const message = telegram.sendFile({
        ...who,
        kind: input.file,
        bytes: Buffer.from(input.bytes),
        ...(input.file === 'document' && input.fileName !== undefined && { fileName: input.fileName }),
        ...(caption !== undefined && { caption }),
      });
      if (mark) played.strangerFiles.push(...fileIdsOf(message));
      return { messageId: message.message_id };
    }
    case 'press': {
      const messageId = targetIn(telegram, who, input.on);
      if (messageId === undefined || !telegram.message(who.chatId, messageId)) return undefined; // nothing there to press
      return { queryId: telegram.forgeButtonPress({ ...who, messageId, data: input.data }).id };
    }
    case 'edit': {
      const own = telegram.messages(who.chatId).filter((m) => !m.fromBot && m.from.id === who.userId && m.text !== undefined);
      const edited = own[input.index % Math.max(own.length, 1)];
      if (!edited || !input.text.trim()) return undefined;
      telegram.editText({ chatId: who.chatId, messageId: edited.messageId, userId: who.userId, text: input.text });
      return 'silent-edit';
    }
  }
}

/** An earlier message of the chat (the bot's or a person's), or an id that exists nowhere. */
function targetIn(telegram: FakeTelegram, who: Where, target: Target | undefined): number | undefined {
  if (!target) return undefined;
  if (target.kind === 'missing') return target.id;
  const earlier = telegram.messages(who.chatId, who.threadId).filter((m) => m.fromBot === target.fromBot);
  return earlier.length ? earlier[target.index % earlier.length]!.messageId : undefined;
}

function fileIdsOf(message: ReturnType<FakeTelegram['sendFile']>): string[] {
  return [message.document?.file_id, message.voice?.file_id, ...(message.photo ?? []).map((p) => p.file_id)].filter((id): id is string => !!id);
}

/** The text or caption as the bot got it (Telegram drops what a caption cannot hold, such as control characters). */
const deliveredText = (telegram: FakeTelegram, chatId: number, messageId: number) => {
  const message = telegram.message(chatId, messageId);
  return message?.text ?? message?.caption ?? '';
};

/** `/cmd@otherbot`: meant for another bot, so not the bridge's to answer. */
function forAnotherBot(text: string): boolean {
  const target = /^\/[A-Za-z0-9_]{1,32}@([A-Za-z0-9_]{3,64})(?=\s|$)/.exec(text)?.[1];
  return target !== undefined && target.toLowerCase() !== BOT_USERNAME;
}
