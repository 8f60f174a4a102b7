import type { CallbackQuery, Chat, Message, Update, User } from 'grammy/types';
import type { BotState } from './bot-state.ts';
import type { Changes } from './changes.ts';
import { formatText } from './formatting/format-text.ts';
import { toBotApiMessage } from './message-view.ts';
import type { BotSettings } from './methods/context.ts';
import type { UpdateQueue } from './update-queue.ts';
import type { MessageRecord, NewMessage, World } from './world.ts';

/**
 * What people do in the fake world: write messages and press buttons (files: user-files.ts).
 * Each action stores what Telegram would store and queues the update the bot would receive. Impossible actions (a
 * button that does not exist, a reply to a missing message) throw, so a test cannot pass on a
 * situation the real Telegram would never produce.
 */

export type ChatType = 'private' | 'group' | 'supergroup';

export interface UserOptions {
  readonly userId: number;
  readonly firstName?: string;
  readonly lastName?: string;
  readonly username?: string;
  readonly languageCode?: string;
}

export interface MessageOptions extends UserOptions {
  /** Private chats: the user's id. Groups: negative. Supergroups: -100… (e.g. -1001234567890). */
  readonly chatId: number;
  /** Inferred from chatId when omitted. */
  readonly chatType?: ChatType;
  /** Title for group chats created by this message. */
  readonly chatTitle?: string;
  /** A forum topic; it is opened on first use, which makes the supergroup a forum. */
  readonly threadId?: number;
  /** Id of the message this one replies to. */
  readonly replyTo?: number;
}

export interface SendTextOptions extends MessageOptions {
  readonly text: string;
}

export interface PressButtonOptions extends UserOptions {
  readonly chatId: number;
  readonly messageId: number;
  /** The callback_data of the pressed button; the message must carry such a button. */
  readonly data: string;
}

export interface ActionDeps {
  readonly world: World;
  readonly updates: UpdateQueue;
  readonly state: BotState;
  readonly settings: BotSettings;
  readonly changes: Changes;
}

const SUPERGROUP_ID_LIMIT = -1_000_000_000_000;

function chatTypeOf(chatId: number, userId: number, requested: ChatType | undefined): ChatType {
  const inferred: ChatType = chatId > 0 ? 'private' : chatId <= SUPERGROUP_ID_LIMIT ? 'supergroup' : 'group';
  if (requested !== undefined && requested !== inferred) {
    throw new Error(
      `chat id ${chatId} cannot be a ${requested} chat: private chats have the user's (positive) id, ` +
        'groups small negative ids, supergroups ids like -1001234567890',
    );
  }
  if (inferred === 'private' && chatId !== userId) {
    throw new Error(`a private chat's id is its user's id: chatId ${chatId} but userId ${userId}`);
  }
  return inferred;
}

export function userFrom(world: World, options: UserOptions): User {
  const known = world.user(options.userId);
  return world.upsertUser({
    id: options.userId,
    is_bot: false,
    first_name: options.firstName ?? known?.first_name ?? `User${options.userId}`,
    ...((options.lastName ?? known?.last_name) !== undefined && { last_name: options.lastName ?? known?.last_name }),
    ...((options.username ?? known?.username) !== undefined && { username: options.username ?? known?.username }),
    ...((options.languageCode ?? known?.language_code) !== undefined && {
      language_code: options.languageCode ?? known?.language_code,
    }),
  });
}

function chatFor(options: MessageOptions, user: User): Chat {
  const type = chatTypeOf(options.chatId, options.userId, options.chatType);
  if (type === 'private') {
    return {
      id: user.id,
      type,
      first_name: user.first_name,
      ...(user.last_name !== undefined && { last_name: user.last_name }),
      ...(user.username !== undefined && { username: user.username }),
    };
  }
  return { id: options.chatId, type, title: options.chatTitle ?? `Test ${type} ${options.chatId}` };
}

/** With privacy mode on, a group bot only sees commands, replies to itself and mentions of it. */
function botSees(deps: ActionDeps, record: MessageRecord, chat: Chat): boolean {
  if (!deps.settings.groupPrivacy || chat.type === 'private') return true;
  const text = record.content.text ?? record.content.caption ?? '';
  const startsWithCommand = record.content.entities.some((e) => e.type === 'bot_command' && e.offset === 0);
  const repliesToBot =
    record.replyToMessageId !== undefined &&
    record.replyToMessageId !== record.threadId &&
    deps.world.message(record.chatId, record.replyToMessageId)?.fromBot === true;
  const mentionsBot = text.toLowerCase().includes(`@${deps.world.bot.username.toLowerCase()}`);
  return startsWithCommand || repliesToBot || mentionsBot;
}

export function sendText(deps: ActionDeps, options: SendTextOptions): Message {
  const formatted = formatText(options.text, undefined, undefined);
  if (formatted === undefined) throw new Error('sendText: Telegram clients do not send empty or blank messages');
  return postMessage(deps, options, 'sendText', { content: { text: formatted.text, entities: formatted.entities }, document: undefined });
}

/** Stores a user's message where Telegram would (its chat, its topic, its reply) and queues the update. */
export function postMessage(
  deps: ActionDeps,
  options: MessageOptions,
  action: string,
  fields: Pick<NewMessage, 'content' | 'document' | 'media' | 'mediaGroupId'>,
  /** What a forged update adds to the Message the bot receives (see forged-updates.ts). */
  forge: (message: Message) => Message = (message) => message,
): Message {
  const { world } = deps;
  const user = userFrom(world, options);
  const chat = world.ensureChat(chatFor(options, user));
  if (chat.chat.type !== 'private') world.joined(chat.chat.id, user.id);
  const replied = options.replyTo === undefined ? undefined : world.message(options.chatId, options.replyTo);
  if (options.replyTo !== undefined && !replied) {
    throw new Error(`${action}: message ${options.replyTo} does not exist in chat ${options.chatId}`);
  }
  const threadId = options.threadId ?? replied?.threadId;
  if (threadId !== undefined) world.ensureTopic(options.chatId, threadId, user);

  const record = world.addMessage({
    chatId: options.chatId,
    threadId,
    from: user,
    fromBot: false,
    ...fields,
    replyMarkup: undefined,
    replyToMessageId: replied?.messageId ?? threadId,
    linkPreviewOptions: undefined,
    protectContent: false,
  });
  const message = forge(toBotApiMessage(world, record));
  if (botSees(deps, record, chat.chat)) deps.updates.push({ message } as Omit<Update, 'update_id'>);
  deps.changes.notify();
  return message;
}

export function pressButton(deps: ActionDeps, options: PressButtonOptions): CallbackQuery {
  const { world } = deps;
  const chat = world.chat(options.chatId);
  if (!chat) throw new Error(`pressButton: chat ${options.chatId} does not exist`);
  if (chat.chat.type === 'private' && options.userId !== chat.chat.id) {
    throw new Error(`pressButton: user ${options.userId} cannot see private chat ${chat.chat.id}`);
  }
  const record = world.message(options.chatId, options.messageId);
  if (!record) throw new Error(`pressButton: message ${options.messageId} does not exist in chat ${options.chatId}`);
  const buttons = record.replyMarkup?.inline_keyboard.flat() ?? [];
  if (!buttons.some((b) => 'callback_data' in b && b.callback_data === options.data)) {
    const available = buttons.map((b) => ('callback_data' in b ? JSON.stringify(b.callback_data) : `(${b.text})`));
    throw new Error(
      `pressButton: message ${options.messageId} has no button with callback_data ${JSON.stringify(options.data)}; ` +
        `its buttons: ${available.join(', ') || 'none'}`,
    );
  }
  return queueCallbackQuery(deps, options, record);
}

/** Queues the callback_query update of a press on `record`, which the bot must answer. */
export function queueCallbackQuery(deps: ActionDeps, options: PressButtonOptions, record: MessageRecord): CallbackQuery {
  const { world, state } = deps;
  const from = userFrom(world, options);
  const query: CallbackQuery = {
    id: state.nextQueryId(),
    from,
    message: toBotApiMessage(world, record),
    // Stable per chat, as Telegram's is.
    chat_instance: String(BigInt(options.chatId) * 7919n - 4_611_686_018_427_387_904n),
    data: options.data,
  };
  state.pendingQueries.set(query.id, {
    id: query.id,
    from,
    chatId: options.chatId,
    messageId: options.messageId,
    data: options.data,
  });
  deps.updates.push({ callback_query: query });
  deps.changes.notify();
  return query;
}
