import { nanoid } from 'nanoid';
import { warnIfFails, type Log } from '../../kernel/log/logger.ts';
import { chatKey, type Button, type IncomingMessage, type Outbound } from '../../kernel/ports/chat.ts';
import { ordinal } from '../../work/presentation/ordinal.ts';
import { displayPath } from '../../work/presentation/paths.ts';
import { formatDuration } from '../../work/presentation/progress.ts';
import { plain } from '../../kernel/rich/index.ts';
import type { TurnOutcome } from '../../engine/session/running-turn.ts';
import type { CarriedTurn, TurnControls } from '../../engine/session/turn-controls.ts';
import type { AgentEvent } from '../../kernel/protocols/events.ts';
import type { OutsideSource, PendingMessage } from '../../kernel/store/chat-store.ts';
import type { Person } from '../../engine/usage/usage-ledger.ts';
import type { CostMeter } from '../../engine/usage/cost-meter.ts';
import { CostCap } from '../../engine/usage/cost-cap.ts';
import { costStopText } from '../../work/presentation/usage.ts';
import { allowsMore, newSessionNotice } from '../session/outside-text.ts';
import type { EngineSettings } from '../../engine/engine-settings.ts';
import type { Settings } from '../../kernel/settings/bridge-manifest.ts';
import type { ChatSession } from '../session/chat-session.ts';
import type { SteeredMessage } from '../session/current-turn.ts';
import { chatHandoff, handoffFooter } from '../session/handoff.ts';
import { TurnPresenter } from '../presenter/turn-presenter.ts';
import { CallsInFlight } from './calls-in-flight.ts';
import type { Transcripts } from '../../work/transcripts/transcripts.ts';
import { turnRecorder } from '../../work/transcripts/turn-recorder.ts';
import { waitNotice } from '../../engine/fallback/limit-words.ts';
import { TurnWatcher } from '../../engine/fallback/work-notes.ts';
import { AgentSpans } from '../../services/telemetry/traced-agent.ts';

/** One turn as it is followed: its id (its pending message's), its message, whose it is, and its log. */
interface FollowedTurn {
  id: string;
  text: string;
  messageId?: string;
  by: string;
  log: Log;
  /** Its text came from outside the chat's people (a webhook): it marks the session it enters. */
  outside?: OutsideSource;
  /** Who sent it, as people read it (a person's name, `⏰ Schedule #2`), for the transcript. */
  sender?: string;
  /** Whom its cost is for: who typed it, or made the schedule it comes from. None: work nobody typed. */
  payer?: Person;
  /** The most it may cost (a webhook's `budget`): stopped for cost through the CLI's interrupt once reached. */
  budgetUsd?: number;
}

/** Someone following one turn (an API client that sent its message): its events, then its outcome. */
export interface TurnWatch {
  onEvent?(event: AgentEvent): void;
  onEnded?(outcome: TurnOutcome): void;
}

export interface TurnsOptions {
  config: Pick<EngineSettings, 'agentUser'> & {
    settings: Pick<Settings, 'progressEditIntervalMs' | 'answerAsDocumentOverChars' | 'turnTimeoutSeconds' | 'turnTimeoutWarningSeconds'> &
      Partial<Pick<Settings, 'silenceSeconds'>>;
  };
  out: Outbound;
  /** The Stop button of a turn, by its id. */
  stopButton: (turnId: string) => Button;
  /** What prices a turn held to a budget of its own, as its CLI streams; none: such a turn cannot be priced. */
  meter?: (chat: ChatSession) => CostMeter | undefined;
  /** The chats' transcripts, which /export and share links read; none: not kept. */
  transcripts?: Transcripts;
  log: Log;
}

/**
 * The turns of chats' main sessions, from the message to the answer: each is pending in the
 * chat's record until it is answered (so a restart can tell the chat about it), queued behind
 * the one running with a notice of its place, shown by a TurnPresenter, warned about before
 * its timeout, and reported to whoever listens once it ends. Work in flight is tracked, so the
 * bridge knows when it is idle.
 */
export class Turns {
  private readonly running = new Set<Promise<void>>();
  private readonly listeners: ((chat: ChatSession, outcome: TurnOutcome, turn: Pick<FollowedTurn, 'payer'>) => void)[] = [];
  private readonly startListeners: ((chat: ChatSession) => void)[] = [];
  private shuttingDown = false;
  /** What each running turn's record says of its tool calls, by turn id. */
  private readonly calls = new CallsInFlight();
  /** Each chat's last started turn until its answer is shown: the next turn's progress comes after it, so answers stay in order. */
  private readonly shown = new Map<string, Promise<void>>();

  constructor(private readonly options: TurnsOptions) {}

  /** Called with every turn whose CLI starts on it. */
  onStarted(listener: (chat: ChatSession) => void): void {
    this.startListeners.push(listener);
  }

  /** Called with every turn that ended, after its answer, and whom its cost is for. */
  onEnded(listener: (chat: ChatSession, outcome: TurnOutcome, turn: Pick<FollowedTurn, 'payer'>) => void): void {
    this.listeners.push(listener);
  }

  /**
   * A turn of the chat's main session, queued behind the one running; `by`: whose message it
   * is (none: the bridge's own, such as a run's result). `pending`: the message a restart left
   * unanswered, which this turn answers (its prompt may be the resume's own words). `watch`
   * follows it. `message.outside`: its text comes from outside the chat's people, and marks
   * the session it enters. Resolves with the turn's id once it is queued.
   */
  async start(
    chat: ChatSession,
    message: Pick<IncomingMessage, 'text' | 'messageId'> & { outside?: OutsideSource; sender?: string; payer?: Person; budgetUsd?: number },
    by = '',
    pending?: PendingMessage,
    watch?: TurnWatch,
  ): Promise<string> {
    const { out } = this.options;
    const { address } = chat;
    const turnId = pending?.id ?? nanoid(10);
    const outside = pending?.outside ?? message.outside;
    const log = this.options.log.child({ chat: chatKey(address), turn: turnId, message: message.messageId });
    // A line in reply to the message; `what` names it in the log, should it fail.
    const notice = (text: string, what: string) => warnIfFails(out.send(address, plain(text), { replyTo: message.messageId }), log, what);
    // Outside text kept across a restart whose chat now allows more than its sender (another default): it does not run.
    if (outside && allowsMore(chat.effectivePermissionMode, outside.ceiling)) {
      await notice(
        `⛔ A message from ${outside.from} was not run: this chat's mode, ${chat.effectivePermissionMode}, now allows more than its ${outside.ceiling}.`,
        'a notice',
      );
      if (pending) await chat.messages.removePending(pending.id);
      return turnId;
    }
    // A session holding outside text never runs in a mode that allows more, however the mode got looser (a restart with another default).
    // Checked first without waiting: the queue position below is read in the tick the caller read it.
    const left = !chat.busy && chat.outgrown ? await chat.leaveOutgrownSession() : undefined;
    if (left) await notice(newSessionNotice(left, chat.effectivePermissionMode, 'this'), 'the new session notice');
    const position = chat.busy ? chat.queued + 1 : 0;
    if (!pending) {
      await chat.messages.addPending({
        id: turnId,
        text: message.text,
        by,
        messageId: message.messageId,
        outside,
      });
    }
    // A restart began while the message was on its way here: it waits, pending, behind those the drain kept.
    if (this.shuttingDown) return turnId;
    // In a crowded chat the answer itself says the message was taken: no notice to wait behind.
    if (position && !out.crowded?.(address)) {
      await notice(`⏳ Queued (${ordinal(position)} in line): it runs when the current turn ends.`, 'the queue notice');
      // Or while the notice went out (a flood limit can hold it for seconds).
      if (this.shuttingDown) return turnId;
    }
    // A turn taken up after a restart is its writer's, by the id the record kept.
    const payer = message.payer ?? (by ? { key: `${address.transport}:${by}` } : undefined);
    const { controls, ended } = this.follow(chat, { ...message, id: turnId, by, log, outside, payer }, watch);
    // A turn a restart cut short is followed again where it may have gone on; one the shutdown stopped has ended there.
    const takingUp = pending?.startedAt !== undefined && !pending.stoppedByShutdown;
    this.track(chat.agent.send(message.text, { ...controls, turnId, takingUp }).then(ended));
    return turnId;
  }

  /**
   * How one turn is followed, from its start to its answer: its presenter, what it notes as it
   * goes, and once it ends, its answer and the end of its pending message. Messages steered
   * into it that the CLI takes as a turn of its own are followed as such (`carry`).
   */
  private follow(chat: ChatSession, turn: FollowedTurn, watch?: TurnWatch): { controls: TurnControls; ended: (outcome: TurnOutcome) => Promise<void> } {
    const { out, config } = this.options;
    const { id: turnId, text, by, log, outside } = turn;
    const settings = config.settings;
    const key = chatKey(chat.address);
    const presenter = new TurnPresenter(out, chat.address, {
      title: chat.record.cli,
      where: displayPath(chat.record.workdir),
      modelApi: chat.modelApi,
      replyTo: turn.messageId,
      // As often as the setting says, and the chat's app allows.
      editIntervalMs: Math.max(settings.progressEditIntervalMs, 60_000 / out.capabilities(chat.address).editsPerMinute),
      documentOverChars: settings.answerAsDocumentOverChars,
      stopButton: this.options.stopButton(turnId),
      answerFooter: (sessionId) => {
        const command = chat.record.showHandoff && sessionId ? chatHandoff(chat, config) : undefined;
        return command ? handoffFooter(command) : undefined;
      },
      log,
    });
    const timeoutMs = settings.turnTimeoutSeconds * 1000;
    // A turn that will be stopped for running too long says so first, while there is time to act.
    const leadMs = Math.min(settings.turnTimeoutWarningSeconds * 1000, timeoutMs / 2);
    const steers = new Map<string, SteeredMessage>();
    const meter = turn.budgetUsd !== undefined ? this.options.meter?.(chat) : undefined;
    // At its budget: stopped as the Stop button stops it, once; what waits behind it stays.
    const cap =
      meter && new CostCap(meter, turn.budgetUsd, () => this.stopLater(chat, 'it reached its budget', { keepQueued: true, why: 'budget' }, log, 'for cost'));
    // Its trace, from the message taken to the answer sent: the CLI's tool calls, what steered it, the delivery.
    const spans = AgentSpans.invoke({
      work: 'turn',
      cli: chat.record.cli,
      provider: chat.adapter.provider,
      model: chat.record.model,
      conversationId: chat.record.cliSessionId,
      ids: { chat: key, turn: turnId },
    });
    const transcript = this.options.transcripts
      ? turnRecorder(this.options.transcripts, {
          chat: key,
          turn: turnId,
          text,
          // As the transcripts name people: `<transport>:<id>`.
          by: by && !by.includes(':') ? `${chat.address.transport}:${by}` : by,
          sender: turn.sender,
          cli: chat.record.cli,
        })
      : undefined;
    let answerShown!: () => void;
    const shownHere = new Promise<void>((resolve) => (answerShown = resolve));
    const controls: TurnControls = {
      timeoutMs,
      ...(settings.silenceSeconds ? { silenceMs: settings.silenceSeconds * 1000 } : {}),
      onStart: () => {
        log.info({ cli: chat.record.cli, cwd: chat.record.workdir }, 'turn started');
        const startedAt = Date.now();
        chat.current = { id: turnId, presenter, startedAt, by, steers, spans, startedBy: turn.payer?.key };
        spans.note('started');
        transcript?.started(chat.record.cliSessionId);
        chat.watcher = new TurnWatcher();
        for (const listener of this.startListeners) listener(chat);
        // The CLI a limit moved the session to, or back from, as the turn starts.
        presenter.progress.title = chat.record.cli;
        presenter.progress.modelApi = chat.modelApi;
        // The text goes into the session now: it carries that for good.
        if (outside) void chat.noteOutsideText(outside);
        void chat.messages.updatePending(turnId, { startedAt, stoppedByShutdown: undefined });
        // After the answer of the turn before it (a carried one ends as the next starts).
        const before = this.shown.get(key);
        this.shown.set(key, shownHere);
        void (before ? before.then(() => presenter.begin()) : presenter.begin());
        presenter.warnLater(
          plain(
            `⏳ This turn will be stopped in ${formatDuration(leadMs)}: turns run for ${formatDuration(timeoutMs)} at most (turnTimeoutSeconds in manifest.json). /stop stops it now.`,
          ),
          timeoutMs - leadMs,
        );
      },
      onEvent: (event) => {
        chat.watcher.observe(event);
        spans.observe(event);
        presenter.onEvent(event);
        transcript?.event(event);
        this.calls.note(chat, turnId, event);
        watch?.onEvent?.(event);
        cap?.observe(event);
      },
      onCarried: (ids) =>
        this.carry(
          chat,
          turn,
          ids.map((id) => steers.get(id)).filter((message) => message !== undefined),
        ),
      ...(chat.record.planning && chat.agent.runsLive ? { planning: true } : {}),
    };
    const ended = async (ending: TurnOutcome): Promise<void> => {
      // Stopped by the shutdown only if it ended after the shutdown began: a turn someone stopped
      // just before it (its answer still going out) is not taken up again after the restart.
      const cutByShutdown = this.shuttingDown && ending.status === 'stopped';
      try {
        const outcome = limitTold(chat, ending);
        // How it went, never what was said.
        log[outcome.status === 'completed' || outcome.status === 'stopped' ? 'info' : 'warn'](
          { ms: outcome.durationMs, costUsd: outcome.result?.costUsd, error: outcome.error || undefined },
          `turn ${outcome.status}`,
        );
        this.calls.forget(turnId);
        if (chat.current?.id === turnId) chat.current = undefined;
        transcript?.ended(outcome);
        spans.outcome(outcome);
        // Noted before the chat sees the ending: a command it sends next (/status, /handoff) reads the session as it is.
        await chat.noteTurn(text, outcome.sessionId, outcome.status === 'completed');
        // A turn whose CLI never started (it could not be run) has no progress message, but is answered all the same.
        await spans.delivering(chat.address.transport, () => presenter.finish(outcome));
        const stoppedFor = cap?.stoppedFor;
        if (stoppedFor !== undefined && outcome.status === 'stopped')
          await warnIfFails(out.send(chat.address, plain(costStopText(stoppedFor, turn.budgetUsd!)), { replyTo: turn.messageId }), log, 'the cost notice');
        answerShown();
        for (const listener of this.listeners) listener(chat, outcome, turn);
        watch?.onEnded?.(outcome);
        // Stopped by a shutdown: stays pending, so the chat hears about it after the restart. Answered: no
        // longer pending, and its answer in the work's notes, in one write (a kill after the answer and
        // before it is saved answers the message again after the restart, the one duplicate left).
        if (cutByShutdown) await chat.messages.updatePending(turnId, { stoppedByShutdown: true });
        else await chat.messages.removePending(turnId, chat.workNoted(text, outcome));
      } catch (error) {
        log.error({ err: error }, 'reporting the turn failed');
      } finally {
        answerShown();
        if (this.shown.get(key) === shownHere) this.shown.delete(key);
        spans.end();
      }
    };
    return { controls, ended };
  }

  /**
   * Messages steered into `from` that its CLI took, after `from`'s answer, as a turn of its own
   * (they reached it after its result): that turn answers them, replying to the first, pending
   * in their name from now on so a restart resumes it once.
   */
  private carry(chat: ChatSession, from: FollowedTurn, messages: SteeredMessage[]): CarriedTurn {
    // Each steer is noted as it is written, so none is unknown; were one, the answer still goes to the turn's own message.
    const [first = { text: from.text, messageId: from.messageId, by: from.by }, ...more] = messages;
    const id = nanoid(10);
    const entry: PendingMessage = { id, ...first, ...(more.length ? { steered: more.map((message) => message.text) } : {}) };
    // The record changes at once (the write follows), so this turn's end removes what it adds.
    const steered = messages.map((message) => message.text);
    void chat.messages.carryOver(from.id, entry, steered);
    const log = this.options.log.child({ chat: chatKey(chat.address), turn: id, message: first.messageId });
    log.info({ from: from.id, messages: messages.length }, 'the CLI took messages steered into the turn as a turn of its own');
    const text = [first, ...more].map((message) => message.text).join('\n\n');
    const payer = first.by === from.by ? from.payer : first.by ? { key: `${chat.address.transport}:${first.by}` } : undefined;
    const { controls, ended } = this.follow(chat, { id, text, messageId: first.messageId, by: first.by, log, payer });
    let settle!: (outcome: TurnOutcome) => void;
    this.track(new Promise<TurnOutcome>((resolve) => (settle = resolve)).then(ended));
    return { ...controls, ended: (outcome) => settle(outcome) };
  }

  /** Stops the chat's turn in the background (a Stop button, a budget reached): answered at once, a failure logged. */
  stopLater(chat: ChatSession, reason: string, options: Parameters<ChatSession['stop']>[1], log: Log, why = ''): void {
    this.track(warnIfFails(chat.stop(reason, options), log, `stopping the turn${why ? ` ${why}` : ''}`));
  }

  /** Work that must end before the bridge is idle (a turn, a stop in the background). */
  track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  /** From now, a stopped turn stays pending: it is resumed (or the chat hears about it) after the restart. */
  shutDown(): void {
    this.shuttingDown = true;
    this.calls.noteAllNow();
  }

  isIdle(): boolean {
    return this.running.size === 0;
  }

  /** Resolves when nothing tracked is running. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all(this.running);
  }
}

/** A turn a limit stopped, with no CLI to go on in: the chat is told plainly when it can go on. */
function limitTold(chat: ChatSession, outcome: TurnOutcome): TurnOutcome {
  if (outcome.status !== 'failed' || !outcome.limit) return outcome;
  const now = Date.now();
  const others = Object.entries(chat.record.limited ?? {})
    .filter(([cli, limit]) => cli !== chat.record.cli && limit.until > now)
    .map(([cli]) => cli);
  const another = chat.knownClis.find((cli) => cli !== chat.record.cli);
  return {
    ...outcome,
    error: waitNotice(chat.record.cli, outcome.limit, { others, ...(chat.fallbackChain || !another ? {} : { suggest: `${chat.record.cli}>${another}` }) }, now),
  };
}
