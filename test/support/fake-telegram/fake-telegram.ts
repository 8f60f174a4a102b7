import type { BotCommand, BotCommandScope, CallbackQuery, Message, UserFromGetMe } from 'grammy/types';
import { createRequestListener } from './api-router.ts';
import { BotState, commandListKey, type CallbackAnswer } from './bot-state.ts';
import { CallLog, type RecordedCall } from './call-log.ts';
import { Changes } from './changes.ts';
import { FaultPlan, type Fault, type FaultOptions } from './faults.ts';
import { FloodLimits } from './flood-limits.ts';
import { listen, type RunningServer } from '../loopback-server.ts';
import { toFakeMessage, type FakeMessage } from './message-view.ts';
import type { BotSettings } from './methods/context.ts';
import { UpdateQueue } from './update-queue.ts';
import { pressButton, sendText, type ActionDeps, type PressButtonOptions, type SendTextOptions } from './user-actions.ts';
import { sendFile, type SendFileOptions } from './user-files.ts';
import { editText, forgeButtonPress, forgeText, type EditTextOptions, type ForgedTextOptions } from './forged-updates.ts';
import { waitUntil, type Check } from './wait-for.ts';
import { World, type Standing } from './world.ts';

export interface FakeTelegramOptions {
  /** Default "123456789:TEST-fake-telegram-token"; the bot id is the part before ':'. */
  readonly token?: string;
  readonly botUsername?: string;
  readonly botFirstName?: string;
  /** Privacy mode in groups (see BotSettings); default false, so the bot sees every message. */
  readonly groupPrivacy?: boolean;
  /** Lets the bot delete other people's messages in groups; default false. */
  readonly botIsGroupAdmin?: boolean;
  /** update_id of the first update; default 100000001. */
  readonly firstUpdateId?: number;
  /** Enforce Telegram's per-chat flood limits (see FloodLimits); default off. */
  readonly floodLimits?: boolean;
  /** Listen on this loopback port (a bridge already pointed at it, say); default: a free one. */
  readonly port?: number;
}

/** As the other fakes' and expect.poll's: a bound for a condition that never comes, reached only by a failure. */
const DEFAULT_WAIT_MS = 20_000;

/**
 * A fake Telegram Bot API server for tests that drive the real grammY client over real HTTP.
 * Point the bot at it with `new Bot(fake.token, { client: { apiRoot: fake.apiRoot } })`.
 */
export class FakeTelegram {
  readonly token: string;
  /** For grammY's `client.apiRoot`, e.g. http://127.0.0.1:41234. */
  readonly apiRoot: string;
  /** `${apiRoot}/bot${token}`: append "/sendMessage" etc. for raw HTTP calls. */
  readonly url: string;
  readonly botInfo: UserFromGetMe;

  private constructor(
    private readonly server: RunningServer,
    private readonly deps: ActionDeps & { readonly calls: CallLog; readonly faults: FaultPlan },
    token: string,
  ) {
    this.token = token;
    this.apiRoot = server.origin;
    this.url = `${server.origin}/bot${token}`;
    this.botInfo = deps.world.bot;
  }

  static async start(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
    const token = options.token ?? '123456789:TEST-fake-telegram-token-0000000000';
    const botId = /^(\d+):[\w-]+$/.exec(token)?.[1];
    if (botId === undefined) throw new Error(`FakeTelegram: "${token}" is not a bot token (<digits>:<secret>)`);
    const world = new World({
      id: Number(botId),
      is_bot: true,
      first_name: options.botFirstName ?? 'Fake Bot',
      username: options.botUsername ?? 'fake_test_bot',
      can_join_groups: true,
      can_read_all_group_messages: !(options.groupPrivacy ?? false),
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
      supports_join_request_queries: false,
    });
    const settings: BotSettings = {
      groupPrivacy: options.groupPrivacy ?? false,
      botIsGroupAdmin: options.botIsGroupAdmin ?? false,
    };
    const changes = new Changes();
    const deps = {
      token,
      world,
      settings,
      changes,
      updates: new UpdateQueue(options.firstUpdateId ?? 100_000_001),
      state: new BotState(),
      calls: new CallLog(changes),
      faults: new FaultPlan(),
      ...(options.floodLimits ? { flood: new FloodLimits() } : {}),
    };
    const server = await listen(createRequestListener(deps), options.port !== undefined ? { port: options.port } : {});
    return new FakeTelegram(server, deps, token);
  }

  // --- what people do -------------------------------------------------------------------

  /** A user writes `text`; the bot receives it as a `message` update. Returns the Message. */
  sendText(options: SendTextOptions): Message {
    return sendText(this.deps, options);
  }

  /**
   * A user sends a document, photo, voice note, audio, video or round video (an album item when
   * `mediaGroupId` is set); the bot receives a `message` update with the Bot API field of that
   * kind. getFile and `/file/bot<token>/<path>` then serve the bytes. Returns the Message.
   */
  sendFile(options: SendFileOptions): Message {
    return sendFile(this.deps, options);
  }

  /** A user presses an inline button; the bot receives a `callback_query` update. */
  pressButton(options: PressButtonOptions): CallbackQuery {
    return pressButton(this.deps, options);
  }

  /** A text a modified client could send: blank, any entities, a reply to a message that is gone (see forged-updates.ts). */
  forgeText(options: ForgedTextOptions): Message {
    return forgeText(this.deps, options);
  }

  /** A user edits their message; queues an `edited_message` update. */
  editText(options: EditTextOptions): Message {
    return editText(this.deps, options);
  }

  /** A press with callback data no button of the message carries. */
  forgeButtonPress(options: PressButtonOptions): CallbackQuery {
    return forgeButtonPress(this.deps, options);
  }

  // --- what the bot did -----------------------------------------------------------------

  /** Every API call, in arrival order, getUpdates included. */
  get calls(): readonly RecordedCall[] {
    return this.deps.calls.calls;
  }

  /** Calls of one method (case-insensitive). */
  callsTo(method: string): RecordedCall[] {
    const name = method.toLowerCase();
    return this.calls.filter((c) => c.method.toLowerCase() === name);
  }

  /** The chat's messages from users and the bot, current state after edits, without deleted ones and topic roots. */
  messages(chatId: number, threadId?: number): FakeMessage[] {
    const { world } = this.deps;
    return world
      .messages(chatId)
      .filter((m) => !m.deleted && m.topicName === undefined && (threadId === undefined || m.threadId === threadId))
      .sort((a, b) => a.messageId - b.messageId)
      .map((m) => toFakeMessage(world, m));
  }

  botMessages(chatId: number, threadId?: number): FakeMessage[] {
    return this.messages(chatId, threadId).filter((m) => m.fromBot);
  }

  /** One message, deleted ones included (see `deleted`). */
  message(chatId: number, messageId: number): FakeMessage | undefined {
    const record = this.deps.world.anyMessage(chatId, messageId);
    return record && toFakeMessage(this.deps.world, record);
  }

  /** The command list for the default scope and no language. */
  get commands(): BotCommand[] {
    return this.commandsFor();
  }

  commandsFor(scope?: BotCommandScope, languageCode?: string): BotCommand[] {
    return [...(this.deps.state.commandLists.get(commandListKey(scope, languageCode)) ?? [])];
  }

  get callbackAnswers(): readonly CallbackAnswer[] {
    return this.deps.state.callbackAnswers;
  }

  /** Updates queued and not yet confirmed by the bot's getUpdates offset. */
  get pendingUpdates(): number {
    return this.deps.updates.pendingCount;
  }

  // --- steering ---------------------------------------------------------------------------

  /**
   * Makes the next call(s) of `method` ("*" for any) fail with `fault`. `"download"` stands for
   * file downloads: an error status, a hang, or (networkDrop) half the body and then a cut
   * connection; FaultOptions.text then matches the file_path.
   */
  failNext(method: string, fault: Fault, options?: FaultOptions): void {
    this.deps.faults.add(method, fault, options);
  }

  /** How a user stands in a group from now on (getChatMember's answer): `left`, `kicked`, `member`, … */
  setStanding(chatId: number, userId: number, standing: Standing): void {
    this.deps.world.setStanding(chatId, userId, standing);
  }

  /** Forgets every planned fault not yet used. */
  clearFaults(): void {
    this.deps.faults.clear();
  }

  /**
   * Resolves with the first truthy value of `predicate`, re-evaluated whenever a call finishes
   * or a message changes. On timeout it rejects listing the bot's recent calls.
   */
  waitFor<T>(predicate: Check<T>, timeoutMs = DEFAULT_WAIT_MS): Promise<T> {
    return waitUntil(this.deps.changes, predicate, timeoutMs, () => this.deps.calls.describeRecent());
  }

  /** The first answered call of `method` matching `match`, among all calls so far and to come. */
  waitForCall(method: string, match: (call: RecordedCall) => boolean = () => true, timeoutMs = DEFAULT_WAIT_MS): Promise<RecordedCall> {
    return this.waitFor(() => this.callsTo(method).find((c) => c.status !== undefined && match(c)), timeoutMs);
  }

  /** The first current bot message in the chat matching `match`. */
  waitForBotMessage(chatId: number, match: (message: FakeMessage) => boolean = () => true, timeoutMs = DEFAULT_WAIT_MS): Promise<FakeMessage> {
    return this.waitFor(() => this.botMessages(chatId).find(match), timeoutMs);
  }

  /** Ends a waiting long poll, stops the server and destroys every connection. */
  async close(): Promise<void> {
    this.deps.updates.close();
    await this.server.close();
  }
}
