import { parseCommandLine } from './command-line.ts';
import { bold, plain, rich } from '../rich/index.ts';
import { nanoid } from 'nanoid';
import { formatDuration } from '../presentation/progress.ts';
import {
  chatKey,
  userKey,
  type ButtonAnswer,
  type ButtonPress,
  type ChatRef,
  type ChatUser,
  type IncomingMessage,
  type Outbound,
  type RichText,
} from '../ports/transport.ts';
import type { TurnOutcome } from '../session/turn.ts';
import type { BridgeConfig } from '../config/config.ts';
import type { Settings } from '../config/bridge-manifest.ts';
import type { OutsideSource } from '../store/chat-store.ts';
import type { ChatSession } from './chat-session.ts';
import type { ChatSessions } from './chat-sessions.ts';
import type { Command, CommandScope } from './commands/command.ts';
import type { CommandServices } from './commands/services.ts';
import { runCommand } from './command-runner.ts';
import { runWithDeadline } from './deadline.ts';
import { buttonKindOf, idButton, type ButtonHandler, type ButtonKind } from '../ports/buttons.ts';
import { refusal, RefusalThrottle } from './refusals.ts';
import { Allowlist } from './allowlist.ts';
import { Turns, type TurnWatch } from './turns.ts';
import { Steering } from './steering.ts';
import { recoverInterrupted } from './restarts.ts';
import { Attachments, type Prompt } from './attachments.ts';
import type { Inbox } from '../files/inbox.ts';
import type { Transcriber } from '../files/transcriber.ts';
import { promptWithFiles } from '../files/prompt.ts';
import type { Log } from '../log/logger.ts';
import { delay } from '../concurrency/delay.ts';
import { truncate } from '../presentation/format/index.ts';

/** The slice of the configuration the bot itself uses. */
export type BotConfig = Pick<
  BridgeConfig,
  'allowedUsers' | 'owners' | 'bareNumbers' | 'agentUser' | 'adapters' | 'projectRoots' | 'projects' | 'dataDir' | 'cliEnv' | 'restart'
> & {
  settings: Pick<
    Settings,
    | 'progressEditIntervalMs'
    | 'answerAsDocumentOverChars'
    | 'turnTimeoutSeconds'
    | 'turnTimeoutWarningSeconds'
    | 'maxQueuedMessages'
    | 'fileReminderSeconds'
    | 'commandTimeoutSeconds'
    | 'fileTransferTimeoutSeconds'
  >;
};

export interface BridgeOptions {
  config: BotConfig;
  chats: ChatSessions;
  out: Outbound;
  /** Every command, in the order /help lists them (`commands/index.ts`). */
  commands: readonly Command[];
  /** What the commands work with beyond the chat's own session. */
  services: CommandServices;
  /** The transport whose one user is the owner at the keyboard, allowlist or not (the console); none: the allowlist decides. */
  trustEveryoneOn?: string;
  /** Why a chat may start no new turn now (its daily budget is spent), or undefined. */
  refuseWork?: (chatKey: string) => string | undefined;
  /** Where files people send are saved (none: the transport cannot fetch files), and how voice becomes words. */
  files?: { inboxes?: ReadonlyMap<string, Inbox>; transcriber?: Transcriber };
  /** A message that answers what waits for words (the agent's question or plan), given who started the running turn: true when taken. */
  takeAnswer?: (message: IncomingMessage, turnStartedBy: string | undefined) => boolean;
  log: Log;
}

/** A running turn's Stop button. */
const STOP_TURN = idButton('stop');
/** What a press of a button the bridge does not (or no longer) know is answered. */
const GONE = 'This button no longer does anything.';

/**
 * The transport-neutral bot: who may talk, what a message means (a command or a turn), and
 * how turns are shown. Every transport (a chat app, the console) feeds it and gives it an Outbound.
 */
export class Bridge {
  readonly config: BotConfig;
  readonly chats: ChatSessions;
  readonly out: Outbound;
  readonly commands: readonly Command[];
  private readonly byName: Map<string, Command>;
  /** By kind, each decoding its own payload. */
  private readonly buttons = new Map<string, ButtonHandler<string>>();
  private readonly refusals = new RefusalThrottle();
  private readonly allowlist: Allowlist;
  private readonly turns: Turns;
  private readonly log: Log;
  readonly attachments: Attachments;
  private readonly steering: Steering;
  /** Restarting: no new turn starts (see drain). */
  private draining = false;

  constructor(private readonly options: BridgeOptions) {
    this.config = options.config;
    this.out = options.out;
    this.chats = options.chats;
    this.log = options.log;
    this.allowlist = new Allowlist(options.config.allowedUsers, options.trustEveryoneOn, options.config.bareNumbers, options.config.owners);
    this.attachments = new Attachments({
      inboxes: options.files?.inboxes ?? new Map(),
      transcriber: options.files?.transcriber,
      out: options.out,
      submit: (chat, prompt) => this.prompt(chat, prompt),
      log: this.log,
      reminderMs: options.config.settings.fileReminderSeconds * 1000,
    });
    this.steering = new Steering({
      out: options.out,
      attachments: this.attachments,
      startTurn: (chat, message, by) => this.startTurn(chat, message, by),
      log: this.log,
    });
    this.commands = options.commands;
    this.byName = new Map(options.commands.map((command) => [command.name, command]));
    this.turns = new Turns({ config: this.config, out: this.out, stopButton: (turnId) => STOP_TURN.button('⏹ Stop', turnId), log: this.log });
    this.button(STOP_TURN, (press, turnId) => this.stopButton(press, turnId));
    for (const command of options.commands)
      for (const route of command.buttons ?? []) this.button(route.kind, (press, payload) => route.press(press, payload, this.scope));
  }

  /** What every part of a command is given. */
  private get scope(): CommandScope {
    return { bridge: this, services: this.options.services };
  }

  /** Handles the presses of one kind of button, with its payload decoded (a press whose payload does not decode is answered here). */
  button<P>(kind: ButtonKind<P>, handler: ButtonHandler<P>): void {
    this.buttons.set(kind.kind, async (press, raw) => {
      const payload = kind.decode(raw);
      return payload === undefined ? { text: GONE } : handler(press, payload);
    });
  }

  /** Called with every turn's outcome once it has been shown (usage is recorded this way). */
  onTurnEnded(listener: (chat: ChatSession, outcome: TurnOutcome) => void): void {
    this.turns.onEnded(listener);
  }

  async statusExtras(chat: ChatSession): Promise<[string, string][]> {
    return (await Promise.all(this.commands.map(async (command) => (command.status ? command.status(chat, this.scope) : [])))).flat();
  }

  /** Whether this user, writing in this chat, is in BRIDGE_ALLOWED_USERS (the console's one user always is). */
  isAllowed(chat: ChatRef, user: ChatUser): boolean {
    return this.allowlist.isAllowed(chat, user);
  }

  /** An owner: one of BRIDGE_OWNERS (by default the first id in BRIDGE_ALLOWED_USERS), or the console's one user. Only they decide what the bridge trusts. */
  isOwner(chat: ChatRef, user: ChatUser): boolean {
    return this.allowlist.isOwner(chat, user);
  }

  /** Handles one message. Returns once it is accepted (a turn runs on in the background). */
  async handleMessage(message: IncomingMessage, botUsername?: string): Promise<void> {
    const { address, user } = message;
    if (!this.isAllowed(address, user)) {
      if (!this.refusals.shouldRefuse(userKey(address.transport, user))) return;
      this.log.warn({ chat: chatKey(address), user: user.id }, 'refused a user not in BRIDGE_ALLOWED_USERS');
      // Not awaited: the chat's members must not wait behind a refusal retried against a flood limit.
      void this.out
        .send(address, refusal(this.allowlist.writtenId(address, user)), { replyTo: message.messageId })
        .catch((error: Error) => this.log.warn({ chat: chatKey(address), user: user.id }, `the refusal failed: ${error.message}`));
      return;
    }
    const command = parseCommandLine(message.text, botUsername);
    if (command?.forOtherBot) return;
    const chat = this.chats.get(address);
    // Given again after a restart (the transport could not know it was taken): handled once.
    if (message.messageId !== undefined && chat.hasTaken(message.messageId)) return;
    await chat.remember(message.chatTitle);
    const reply = (text: RichText, options = {}) => this.out.send(address, text, { replyTo: message.messageId, ...options });
    if (message.attachments?.length) {
      // Files captioned with a command wait for it: `/spawn` takes them.
      await this.attachments.receive(chat, command ? { ...message, text: '' } : message);
      if (!command) return;
    }
    if (command) {
      const registered = this.byName.get(command.name);
      if (!registered) {
        await reply(plain(`Unknown command /${command.name}. Try /help.`));
        return;
      }
      const access = typeof registered.access === 'function' ? registered.access(command.rest) : registered.access;
      if (access === 'owner' && !this.isOwner(address, user)) {
        await reply(
          plain(
            `⛔ Only the owner (BRIDGE_OWNERS, by default the first id in BRIDGE_ALLOWED_USERS) may use ${command.rest.trim() ? `/${command.name} ${command.rest.trim()}` : `/${command.name}`}.`,
          ),
        );
        return;
      }
      const { settings } = this.config;
      // At most once: a command cut short by a restart is not run again, and its chat is told.
      await chat.commandBegun(message.messageId, message.text);
      await runCommand(registered, {
        timeoutSeconds: registered.timeoutSeconds?.(settings) ?? settings.commandTimeoutSeconds,
        context: (signal) => ({ ...this.scope, chat, message, args: command.rest, reply, usage: registered.usage, signal }),
        log: this.log.child({ chat: chatKey(address) }),
      });
      await chat.commandDone(message.messageId, message.text);
      return;
    }
    if (this.options.takeAnswer?.(message, chat.current?.by)) {
      if (chat.current) await chat.noteSteered(chat.current.id, message.text, message.messageId);
      return;
    }
    if (!message.text.trim()) {
      // A chat app sends no such message, but a modified client can: it is answered, not dropped.
      await reply(plain('This message holds only blank space, so nothing went to the agent.'));
      return;
    }
    await this.prompt(chat, message);
  }

  /** A prompt for the chat's agent, with the files that wait for it, unless the budget or the queue refuses it. */
  private async prompt(chat: ChatSession, prompt: Prompt): Promise<void> {
    const reply = (text: RichText) => this.out.send(chat.address, text, { replyTo: prompt.messageId });
    const refused = this.options.refuseWork?.(chatKey(chat.address));
    if (refused) {
      await reply(plain(refused));
      return;
    }
    if (this.draining) return this.keepForRestart(chat, prompt);
    if (await this.steering.take(chat, prompt)) return;
    const limit = this.config.settings.maxQueuedMessages;
    if (chat.busy && chat.queued >= limit) {
      await reply(
        plain(`⛔ ${limit} messages are already waiting for the agent, so this one was not queued. Send it again once the current turn ends, or /stop.`),
      );
      return;
    }
    const files = [...(await this.attachments.take(chat, prompt.user.id)), ...(prompt.files ?? [])];
    // The drain may have begun meanwhile: the person is told, as above.
    if (this.draining) return this.keepForRestart(chat, { ...prompt, files });
    await this.startTurn(chat, { ...prompt, text: promptWithFiles(prompt.text, files, chat.record.workdir) }, prompt.user.id);
  }

  /** A message that came during a drain: kept, with its files, to run after the restart. */
  private async keepForRestart(chat: ChatSession, prompt: Prompt): Promise<void> {
    const files = [...(await this.attachments.take(chat, prompt.user.id)), ...(prompt.files ?? [])];
    const text = promptWithFiles(prompt.text, files, chat.record.workdir);
    await chat.addPending({ id: nanoid(10), text, by: prompt.user.id, ...(prompt.messageId !== undefined ? { messageId: prompt.messageId } : {}) });
    await this.out
      .send(chat.address, plain('🔄 The bridge is restarting: your message is kept, and runs as soon as it is back.'), { replyTo: prompt.messageId })
      .catch((error: Error) => this.log.warn({ chat: chatKey(chat.address) }, `the restart notice failed: ${error.message}`));
  }

  /** A turn of the chat's main session, queued behind the one running; `by`: whose message it is (none: the bridge's own, such as a run's result). */
  async startTurn(chat: ChatSession, message: Pick<IncomingMessage, 'text' | 'messageId'>, by = ''): Promise<void> {
    await this.turns.start(chat, message, by);
  }

  /**
   * A message into a chat's main session from something other than its people: a schedule,
   * a webhook, an API client. It never steers or interrupts: it queues behind the turn at work,
   * and the budget, the queue's limit and a drain apply as to anyone's message. The chat sees
   * it, headed by `from` (`⏰ Schedule #2`), and the answer replies to it. `watch` follows its
   * turn to the answer. `position`: 0, it starts now; n, n-th in the chat's queue. While the
   * bridge drains, the message is kept for after the restart: no turn id, and `watch` hears nothing.
   */
  async inject(
    address: ChatRef,
    message: { text: string; from: string; outside?: OutsideSource },
    watch?: TurnWatch,
  ): Promise<{ ok: true; turnId: string; position: number } | { ok: false; reason: string }> {
    const chat = this.chats.get(address);
    const refused = this.options.refuseWork?.(chatKey(address));
    if (refused) return { ok: false, reason: refused };
    const limit = this.config.settings.maxQueuedMessages;
    if (chat.busy && chat.queued >= limit) return { ok: false, reason: `${limit} messages are already waiting for the agent in this chat.` };
    const shown = await this.out.send(address, rich`${bold(message.from)}: ${truncate(message.text, 600)}`);
    if (this.draining) {
      await chat.addPending({
        id: nanoid(10),
        text: message.text,
        by: '',
        messageId: shown.messageId,
        ...(message.outside ? { outside: message.outside } : {}),
      });
      return { ok: true, turnId: '', position: 0 };
    }
    // Read as Turns.start reads it, in the same tick.
    const position = chat.busy ? chat.queued + 1 : 0;
    const turn = { text: message.text, messageId: shown.messageId, ...(message.outside ? { outside: message.outside } : {}) };
    return { ok: true, turnId: await this.turns.start(chat, turn, '', undefined, watch), position };
  }

  async handleButton(press: ButtonPress): Promise<ButtonAnswer> {
    if (!this.isAllowed(press.address, press.user)) {
      return { text: `⛔ Not allowed. Your user id is ${this.allowlist.writtenId(press.address, press.user)}.`, alert: true };
    }
    const { kind, raw } = buttonKindOf(press.data);
    const handler = this.buttons.get(kind);
    if (!handler) return { text: GONE };
    // A button is handled in its chat's turn like a message: it too must let go at the commands' deadline.
    const seconds = this.config.settings.commandTimeoutSeconds;
    let answer: ButtonAnswer | undefined;
    const ended = await runWithDeadline(
      async () => void (answer = await handler(press, raw)),
      seconds * 1000,
      new AbortController(),
      (error) => this.log.warn({ err: error, chat: chatKey(press.address) }, `a ${kind} button failed after its deadline`),
    );
    if (ended === 'done' && answer) return answer;
    this.log.warn({ chat: chatKey(press.address) }, `a ${kind} button passed its ${seconds} s deadline`);
    return { text: `⌛ That took longer than ${seconds} s and was stopped.`, alert: true };
  }

  /** Stops the chat's turn, its queue, and whatever the stop hooks own (subagents). */
  async stopChat(chat: ChatSession, reason: string): Promise<string> {
    const { running, dropped } = await chat.stop(reason);
    const lines = [
      [
        running ? '⏹ Stopped the turn; the session goes on with your next message.' : 'No turn was running.',
        dropped ? `Dropped ${dropped} waiting message${dropped === 1 ? '' : 's'}.` : '',
      ]
        .filter(Boolean)
        .join(' '),
    ];
    for (const command of this.commands) {
      const line = await command.stop?.(chat, reason, this.scope);
      if (line) lines.push(line);
    }
    return lines.join('\n');
  }

  /**
   * At the start: the messages in flight when the bridge last stopped are taken up (resumed,
   * or run if they were waiting), or named to their chats (BRIDGE_RESUME_INTERRUPTED=off).
   */
  async recoverInterrupted(): Promise<void> {
    const interrupted = this.chats.interrupted();
    await recoverInterrupted(interrupted, {
      out: this.out,
      resume: this.config.restart.resume,
      ...(this.options.refuseWork ? { refuseWork: this.options.refuseWork } : {}),
      startTurn: async (chat, message, by, pending) => void (await this.turns.start(chat, message, by, pending)),
      stopping: () => this.draining,
      log: this.log,
    });
    // Albums that were gathering came after the messages above.
    if (!this.draining) await this.attachments.recover(interrupted);
  }

  /**
   * The first part of a restart: no new turn starts (queued ones and messages that come
   * meanwhile are kept for after it, and their chats told), and the running turns have until
   * `ms` have passed to finish. Their progress says so.
   */
  async drain(ms: number): Promise<void> {
    this.draining = true;
    this.turns.shutDown();
    const chats = this.chats.active();
    for (const chat of chats) {
      chat.agent.dropQueued(RESTARTING);
      chat.current?.presenter.showNotice(`🔄 The bridge is restarting: this turn has ${formatDuration(ms)} to finish, or it goes on after the restart.`);
    }
    await Promise.race([this.turns.idle(), delay(ms)]);
  }

  /** Stops every turn (CLIs exit cleanly) and waits until each has been reported. */
  async shutdown(reason = this.config.restart.resume ? RESTARTING : 'the bridge is shutting down'): Promise<void> {
    this.turns.shutDown();
    this.attachments.close();
    await Promise.all(this.chats.active().map((chat) => chat.stop(reason)));
    await this.turns.idle();
  }

  isIdle(): boolean {
    return this.turns.isIdle();
  }

  /** Resolves when no turn is running (tests, shutdown). */
  async idle(): Promise<void> {
    await this.turns.idle();
  }

  private async stopButton(press: ButtonPress, turnId: string): Promise<ButtonAnswer> {
    const chat = this.chats.get(press.address);
    if (chat.current?.id !== turnId) return { text: 'That turn has already ended.' };
    // Answered at once: the turn ends through the CLI's interrupt (a few seconds at worst), and its progress says so.
    this.turns.track(
      chat.stop(`stopped by ${press.user.name ?? press.user.id}`, { keepQueued: true }).then(
        () => {},
        (error: Error) => this.log.warn({ chat: chatKey(press.address) }, `stopping the turn failed: ${error.message}`),
      ),
    );
    return { text: '⏹ Stopping…' };
  }
}

/** Why work a restart stopped stopped: it goes on after the restart. */
const RESTARTING = 'the bridge is restarting: this goes on once it is back';

export type { ChatRef };
