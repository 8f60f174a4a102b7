import { autoRetry } from '@grammyjs/auto-retry';
import { run, sequentialize, type RunnerHandle } from '@grammyjs/runner';
import { Api, Bot, type BotError, type Context } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';
import type { TransportHost } from '../../kernel/ports/transport.ts';
import { plain } from '../../kernel/rich/index.ts';
import { chatKey, type ChatRef, type ChatUser, type Outbound } from '../../kernel/ports/chat.ts';
import type { TelegramSettings } from './settings.ts';
import { attachmentsOf } from './attachments.ts';
import { ownCommandText } from './commands.ts';
import { replyOf } from '../serving/incoming.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { telegramChat } from './id.ts';
import type { UpdateJournal } from './update-journal.ts';

/** A grammY bot without the bridge: the API client with auto-retry, pointed at the configured Bot API root. */
export function createBot({ token, apiRoot }: Required<TelegramSettings>): Bot {
  const bot = new Bot(token, { client: { apiRoot } });
  // 429s wait for retry_after; 5xx and network errors are retried with backoff.
  bot.api.config.use(autoRetry({ maxRetryAttempts: 8, maxDelaySeconds: 300 }));
  return bot;
}

/**
 * The API client the bridge's messages go out through: network errors and 5xx are retried with
 * backoff, but a 429 comes back at once, so the chat's send budget pauses that chat alone
 * (waiting inside the call would hold every later call of the bot's client in the same way).
 */
export function createOutboundApi({ token, apiRoot }: Required<TelegramSettings>): Api {
  const api = new Api(token, { apiRoot });
  api.config.use(autoRetry({ maxRetryAttempts: 8, maxDelaySeconds: -1 }));
  return api;
}

/**
 * Long polling with @grammyjs/runner: updates of one chat (or topic) are handled in order,
 * different chats concurrently. Handlers return as soon as a turn is queued, so /stop is
 * never stuck behind a running turn.
 */
export async function startTelegram(
  bot: Bot,
  me: UserFromGetMe,
  bridge: TransportHost,
  out: Outbound,
  log: Log,
  journal: UpdateJournal,
): Promise<RunnerHandle> {
  bot.botInfo = me;
  await bot.api.setMyCommands(bridge.commands.map((c) => ({ command: c.name, description: c.description })));

  // Before anything waits: a message is on disk from its arrival until it is handed over.
  bot.use(journal.middleware());

  // A chat's messages in order, and its button presses in order, but a press never waits behind a message being handled.
  bot.use(sequentialize((ctx: Context) => (ctx.chat ? `${ctx.callbackQuery ? 'press' : 'message'}:${chatKey(addressOf(ctx))}` : undefined)));

  bot.on('message', async (ctx) => {
    const address = addressOf(ctx);
    const user = userOf(ctx);
    const message = ctx.message;
    const attachments = attachmentsOf(message);
    const text = ownCommandText(message.text ?? message.caption ?? '', me.username);
    if (text === undefined) return; // a command for another bot in the group
    if (message.text === undefined && !attachments.length) {
      // Stickers, locations, polls: refused like anything else for strangers; explained to users.
      if (!bridge.isAllowed(address, user)) return bridge.handleMessage({ address, user, text: '', messageId: String(message.message_id) });
      await out.send(address, plain('Only text, files, photos and voice messages reach the agent.'), { replyTo: String(message.message_id) });
      return;
    }
    // In a forum topic every message "replies" to the topic's first service message: not a real reply.
    const replied = message.reply_to_message?.forum_topic_created === undefined ? message.reply_to_message : undefined;
    await bridge.handleMessage({
      address,
      user,
      text,
      messageId: String(message.message_id),
      order: message.message_id,
      ...(attachments.length ? { attachments } : {}),
      ...(message.media_group_id ? { albumId: message.media_group_id } : {}),
      ...(ctx.chat.type === 'private' ? { private: true } : {}),
      ...titleOf(ctx.chat),
      ...(replied &&
        replyOf(
          replied.text ?? replied.caption ?? '',
          attachmentsOf(replied),
          replied.from && { name: replied.from.username ? `@${replied.from.username}` : replied.from.first_name, id: String(replied.from.id) },
        )),
    });
  });

  bot.on('callback_query:data', async (ctx) => {
    const message = ctx.callbackQuery.message;
    if (!message) return ctx.answerCallbackQuery();
    const answer = await bridge.handleButton({
      address: addressOf(ctx),
      user: userOf(ctx),
      data: ctx.callbackQuery.data,
      messageId: String(message.message_id),
    });
    await ctx.answerCallbackQuery({ text: answer.text, show_alert: answer.alert ?? false });
  });

  // The error boundary: one bad update is logged, the bot goes on.
  bot.catch((error) => log.error({ err: error.error, chat: error.ctx.chat?.id, update: error.ctx.update.update_id }, 'handling an update failed'));

  // What a killed predecessor had taken from Telegram and not handed over comes first, in order.
  const replayed = await journal.replay((update) => bot.handleUpdate(update));
  if (replayed) log.info(`handled ${replayed} message(s) received before the restart`);
  // Each batch is on disk before the runner asks for the next, which tells Telegram it is taken.
  return run<Update, BotError>(
    {
      init: () => bot.init(),
      handleUpdate: (update) => bot.handleUpdate(update),
      errorHandler: (error) => bot.errorHandler(error),
      api: {
        getUpdates: async (args, signal) => {
          const updates = await bot.api.getUpdates(args, signal);
          await journal.received(updates);
          return updates;
        },
      },
    },
    { runner: { fetch: { allowed_updates: ['message', 'callback_query'] } } },
  );
}

function addressOf(ctx: Context): ChatRef {
  const message = ctx.message ?? ctx.callbackQuery?.message;
  const threadId = message && 'is_topic_message' in message && message.is_topic_message ? message.message_thread_id : undefined;
  return telegramChat(ctx.chat!.id, threadId);
}

function userOf(ctx: Context): ChatUser {
  const from = ctx.from!;
  return { id: String(from.id), name: from.username ? `@${from.username}` : from.first_name };
}

/** A group's title, or a private chat's person by name. */
function titleOf(chat: { title?: string; first_name?: string; last_name?: string }): { chatTitle?: string } {
  const title = chat.title ?? [chat.first_name, chat.last_name].filter(Boolean).join(' ');
  return title ? { chatTitle: title } : {};
}
