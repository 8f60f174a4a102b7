import { nanoid } from 'nanoid';
import { chatKey, type ButtonAnswer, type ButtonPress, type ChatRef, type IncomingMessage, type Outbound } from '../kernel/ports/chat.ts';
import type { EngineSettings } from '../engine/engine-settings.ts';
import type { PeopleSettings } from './people/people-settings.ts';
import type { RestartSettings } from '../work/restart-settings.ts';
import type { Settings } from '../kernel/settings/bridge-manifest.ts';
import type { OutsideSource } from '../kernel/store/chat-store.ts';
import type { ChatSessions } from './session/chat-sessions.ts';
import type { Command, CommandHost, CommandScope } from './dispatch/command.ts';
import type { CommandServices } from './dispatch/command-services.ts';
import { idButton, type ButtonHandler, type ButtonKind } from '../kernel/ports/buttons.ts';
import { asWritten } from '../kernel/ports/capabilities.ts';
import { ButtonPresses } from './dispatch/button-presses.ts';
import { RefusalThrottle } from './people/refusals.ts';
import { messagePipeline, type PipelineParts } from './pipeline/index.ts';
import { Allowlist, type AllowlistOptions } from './people/allowlist.ts';
import { Turns, type TurnsOptions, type TurnWatch } from './turns/turns.ts';
import type { Person } from '../engine/usage/usage-ledger.ts';
import { CostMeter } from '../engine/usage/cost-meter.ts';
import { Steering } from './turns/steering.ts';
import { recoverInterrupted } from './turns/restarts.ts';
import { replayCommands } from './dispatch/command-replay.ts';
import { Attachments } from './session/attachments.ts';
import type { Inbox } from '../engine/files/inbox.ts';
import type { Transcriber } from '../engine/files/transcriber.ts';
import type { Log } from '../kernel/log/logger.ts';
import { delay } from '../kernel/concurrency/delay.ts';
import { truncate } from '../work/presentation/format/index.ts';
import { bold, rich } from '../kernel/rich/index.ts';
import { DRAIN_WORDS, type DrainReason } from './turns/leaving.ts';

/** The slice of the configuration the bot itself uses: what its commands may read, and its own. */
export type BotConfig = CommandHost['config'] &
  TurnsOptions['config'] &
  Pick<PeopleSettings, 'bareNumbers'> &
  Partial<Pick<EngineSettings, 'prices'>> & {
    restart: RestartSettings;
    settings: PipelineParts['settings'] & Pick<Settings, 'maxQueuedMessages' | 'fileReminderSeconds'>;
  };

export interface BotOptions
  extends Pick<AllowlistOptions, 'trustEveryoneOn'>, Pick<TurnsOptions, 'transcripts'>, Partial<Pick<PipelineParts, 'questions' | 'budget'>> {
  config: BotConfig;
  chats: ChatSessions;
  out: Outbound;
  /** Every command, in the order /help lists them (`commands/index.ts`). */
  commands: readonly Command[];
  /** What the commands work with beyond the chat's own session. */
  services: CommandServices;
  /** Where files people send are saved (none: the transport cannot fetch files), and how voice becomes words. */
  files?: { inboxes?: ReadonlyMap<string, Inbox>; transcriber?: Transcriber };
  log: Log;
}

/** A running turn's Stop button. */
const STOP_TURN = idButton('stop');

/** What became of a message injected into a chat (see `Bot.inject`). */
export type Injected = { ok: true; turnId: string; position: number } | { ok: false; reason: string };

/**
 * The transport-neutral bot: who may talk, what a message means (a command or a turn: its
 * steps are `pipeline/`), and how turns are shown. Every transport (a chat app, the console)
 * feeds it and gives it an Outbound.
 */
export class Bot {
  readonly config: BotConfig;
  readonly chats: ChatSessions;
  readonly out: Outbound;
  readonly commands: readonly Command[];
  private readonly commandNames: ReadonlySet<string>;
  private readonly presses: ButtonPresses;
  /** Who may use the bridge, where, and as what. */
  readonly allowlist: Allowlist;
  /** The turns of the chats' main sessions: their listeners hear each start and end. */
  readonly turns: Turns;
  /** A turn of a chat's main session, queued behind the one running: what a steer that cannot go in, a message, and a recovered one start. */
  private readonly startTurn = async (...args: Parameters<Turns['start']>): Promise<void> => void (await this.turns.start(...args));
  private readonly log: Log;
  readonly attachments: Attachments;
  private readonly pipeline: ReturnType<typeof messagePipeline>;
  /** Set once a drain begins (a restart, or leaving): no new turn starts (see drain). */
  private drainReason: DrainReason | undefined;

  constructor(private readonly options: BotOptions) {
    this.config = options.config;
    this.out = options.out;
    this.chats = options.chats;
    this.log = options.log;
    const { people, seen } = options.services;
    this.allowlist = new Allowlist({ ...options.config, trustEveryoneOn: options.trustEveryoneOn, people });
    this.presses = new ButtonPresses({ allowlist: this.allowlist, seen, timeoutSeconds: options.config.settings.commandTimeoutSeconds, log: this.log });
    this.attachments = new Attachments({
      inboxes: options.files?.inboxes ?? new Map(),
      transcriber: options.files?.transcriber,
      out: options.out,
      submit: (chat, prompt) => this.pipeline.prompt(chat, prompt),
      log: this.log,
      reminderMs: options.config.settings.fileReminderSeconds * 1000,
    });
    const steering = new Steering({
      out: options.out,
      attachments: this.attachments,
      startTurn: this.startTurn,
      transcripts: options.transcripts,
      log: this.log,
    });
    this.commands = options.commands;
    this.commandNames = new Set(options.commands.map((command) => command.name));
    const prices = options.config.prices;
    this.turns = new Turns({
      config: this.config,
      out: this.out,
      stopButton: (turnId) => STOP_TURN.button('⏹ Stop', turnId),
      // A turn with a budget of its own (a webhook's) is priced as it streams.
      meter: (chat) => prices && new CostMeter(prices, chat.record.cli, options.config.adapters.get(chat.record.cli)?.protocol, chat.record.model),
      transcripts: options.transcripts,
      log: this.log,
    });
    const { settings } = options.config;
    this.pipeline = messagePipeline({
      chats: this.chats,
      out: this.out,
      allowlist: this.allowlist,
      people,
      seen,
      refusals: new RefusalThrottle(),
      turnRefusals: new RefusalThrottle(),
      attachments: this.attachments,
      commands: options.commands,
      scope: () => this.scope,
      settings,
      questions: options.questions,
      budget: options.budget,
      draining: () => this.drainReason,
      steering,
      limit: settings.maxQueuedMessages,
      startTurn: this.startTurn,
      log: this.log,
    });
    this.button(STOP_TURN, (press, turnId) => this.stopButton(press, turnId));
    for (const command of options.commands) command.buttons?.((kind, handler) => this.button(kind, handler), this.scope);
  }

  /** What every part of a command is given. */
  private get scope(): CommandScope {
    return { bot: this, services: this.options.services };
  }

  /** Handles the presses of one kind of button, with its payload decoded (a press whose payload does not decode is answered here). */
  button<P>(kind: ButtonKind<P>, handler: ButtonHandler<P>): void {
    this.presses.on(kind, handler);
  }

  /** Handles one message (a command, words for the agent, files, an answer): see `pipeline/`. Returns once it is accepted (a turn runs on in the background). */
  async handleMessage(message: IncomingMessage): Promise<void> {
    await this.pipeline.message(message);
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
    message: { text: string; from: string; outside?: OutsideSource; payer?: Person; budgetUsd?: number },
    watch?: TurnWatch,
  ): Promise<Injected> {
    const chat = this.chats.get(address);
    const refused = this.options.budget?.refusal(chatKey(address), message.payer?.key);
    if (refused) return { ok: false, reason: refused };
    const limit = this.config.settings.maxQueuedMessages;
    if (chat.busy && chat.queued >= limit) return { ok: false, reason: `${limit} messages are already waiting for the agent in this chat.` };
    const shown = await this.out.send(address, rich`${bold(message.from)}: ${truncate(message.text, 600)}`);
    const { text, outside } = message;
    if (this.drainReason) {
      await chat.messages.addPending({ id: nanoid(10), text, by: '', messageId: shown.messageId, outside });
      return { ok: true, turnId: '', position: 0 };
    }
    // Read as Turns.start reads it, in the same tick.
    const position = chat.busy ? chat.queued + 1 : 0;
    const turn = { text, messageId: shown.messageId, sender: message.from, outside, payer: message.payer, budgetUsd: message.budgetUsd };
    return { ok: true, turnId: await this.turns.start(chat, turn, '', undefined, watch), position };
  }

  async handleButton(press: ButtonPress): Promise<ButtonAnswer> {
    const answer = await this.presses.press(press);
    // Shown where the press was (a notice, or a line in the chat, outside the Outbound): its commands as the app's people write them.
    return answer.text ? { ...answer, text: asWritten(answer.text, this.out.capabilities(press.address), this.commandNames) } : answer;
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
      budget: this.options.budget,
      startTurn: this.startTurn,
      stopping: () => this.drainReason !== undefined,
      log: this.log,
    });
    // Albums that were gathering came after the messages above.
    if (!this.drainReason) await this.attachments.recover(interrupted);
  }

  /**
   * At the start, once runs, orchestrations and schedules are taken up (so what a command made
   * is found, and never made twice): the commands a restart cut short, carried out again where
   * their work is not there, or named to their chats (see `replayCommands`).
   */
  async replayCommands(): Promise<void> {
    await replayCommands(this.chats.interrupted(), {
      commands: this.commands,
      scope: () => this.scope,
      out: this.out,
      run: (chat, message) => this.pipeline.command(chat, message),
      stopping: () => this.drainReason !== undefined,
      log: this.log,
    });
  }

  /**
   * The first part of a restart (or of leaving, `why`): no new turn starts (queued ones and
   * messages that come meanwhile are kept for after it, and their chats told), and the running
   * turns have until `ms` have passed to finish. Their progress says so.
   */
  async drain(ms: number, why: DrainReason = 'restart'): Promise<void> {
    this.drainReason = why;
    const words = DRAIN_WORDS[why];
    this.turns.shutDown();
    const chats = this.chats.active();
    for (const chat of chats) {
      chat.agent.dropQueued(words.stopped);
      chat.current?.presenter.showNotice(words.turn(ms));
    }
    await Promise.race([this.turns.idle(), delay(ms)]);
  }

  /** The chats whose turn is at work (or starting): what a drain begun now waits for. */
  turnsAtWork(): ChatRef[] {
    return this.chats
      .active()
      .filter((chat) => chat.busy)
      .map((chat) => chat.address);
  }

  /** Stops every turn (CLIs exit cleanly) and waits until each has been reported. */
  async shutdown(reason = this.config.restart.resume ? DRAIN_WORDS[this.drainReason ?? 'restart'].stopped : 'the bridge is shutting down'): Promise<void> {
    this.turns.shutDown();
    this.attachments.close();
    await Promise.all(this.chats.active().map((chat) => chat.stop(reason, { why: 'restart' })));
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
    this.turns.stopLater(chat, `stopped by ${press.user.name ?? press.user.id}`, { keepQueued: true }, this.log.child({ chat: chatKey(press.address) }));
    return { text: '⏹ Stopping…' };
  }
}
