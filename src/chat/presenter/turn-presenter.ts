import { deliverMarkdown, planMarkdown } from '../../work/presentation/deliver.ts';
import { lines, plain, type RichText } from '../../kernel/rich/index.ts';
import { ProgressState } from '../../work/presentation/progress.ts';
import type { Button, ChatRef, MessageRef, Outbound } from '../../kernel/ports/chat.ts';
import type { AgentEvent } from '../../kernel/protocols/events.ts';
import type { TurnOutcome } from '../../engine/session/running-turn.ts';
import { warnIfFails, type Log } from '../../kernel/log/logger.ts';

export interface PresenterOptions {
  title: string;
  /** The directory the turn works in, as shown. */
  where?: string;
  replyTo?: string;
  /** At most one progress edit per interval, however chatty the CLI. */
  editIntervalMs: number;
  documentOverChars: number;
  stopButton?: Button;
  /** A line to end the answer with, given the session the turn ran in (the terminal command of /handoff on). */
  answerFooter?: (sessionId: string | undefined) => RichText | undefined;
  /** Where the CLI's model API is, named while the CLI says it is not getting through. */
  modelApi?: string;
  /** Where the transport's failures go: they never stop the turn. */
  log: Log;
}

/** Without events, the elapsed time is still refreshed this often. */
const HEARTBEAT_MS = 5000;
/** In a crowded chat, how long a turn's progress message waits: a turn answered sooner sends only its answer. */
const CROWDED_PROGRESS_DELAY_MS = 5000;
/** A turn answered within this long is likely still watched: its answer replaces the progress message. */
const ANSWER_IN_PLACE_WITHIN_MS = 10_000;

/**
 * Shows one turn in a chat: a progress message edited in place (rate-limited), then the
 * answer as new messages. The transport's failures here are logged and never stop the turn.
 */
export class TurnPresenter {
  readonly progress: ProgressState;
  private ref: MessageRef | undefined;
  private sending: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private editing: Promise<unknown> | undefined;
  private dirty = false;
  private lastEditAt = 0;
  private closed = false;
  /** The progress message's send, put off in a crowded chat. */
  private deferred: NodeJS.Timeout | undefined;
  private timeoutWarning: NodeJS.Timeout | undefined;
  /** The app shows the agent at work (Outbound.working). */
  private working = false;

  constructor(
    private readonly out: Outbound,
    private readonly to: ChatRef,
    private readonly options: PresenterOptions,
  ) {
    this.progress = new ProgressState(options.title, Date.now(), options.where);
    this.progress.modelApi = options.modelApi;
  }

  /**
   * Sends the progress message (with its Stop button). In a chat whose sending is short
   * (Outbound.crowded: a group's burst), it waits a few seconds first: a quick answer then goes
   * out alone, one call instead of two.
   */
  begin(): Promise<void> {
    // At once, in a crowded chat too: the app's sign costs none of the chat's messages.
    if (!this.working && !this.closed) this.showWorking(true);
    if (this.out.crowded?.(this.to) && !this.deferred) {
      this.deferred = setTimeout(() => void this.begin(), CROWDED_PROGRESS_DELAY_MS);
      this.deferred.unref();
      return Promise.resolve();
    }
    if (this.closed) return Promise.resolve();
    this.sending ??= this.out
      .send(this.to, this.progress.render(), { replyTo: this.options.replyTo, buttons: this.buttons() })
      .then((ref) => {
        this.ref = ref;
        this.lastEditAt = Date.now();
        if (this.dirty) this.schedule();
      })
      .catch((error) => this.log('sending the progress message failed', error));
    this.heartbeat = setInterval(() => this.schedule(), HEARTBEAT_MS);
    this.heartbeat.unref();
    return this.sending;
  }

  onEvent(event: AgentEvent): void {
    if (this.progress.apply(event)) this.schedule();
  }

  /** Another CLI took the turn over (a limit stopped the first): the progress names it. */
  retitle(cli: string): void {
    this.progress.title = cli;
    this.schedule();
  }

  /** A message went into the running turn (steered). */
  showAdded(text: string): void {
    this.progress.addMessage(text);
    this.schedule();
  }

  /** A line about the turn, under its steps while it works (the bridge restarting). */
  showNotice(text: string): void {
    this.progress.notice = text;
    this.schedule();
  }

  /** The tools the turn now waits on the chat for (none: answered). */
  showWaiting(tools: string[]): void {
    this.progress.waiting = tools;
    this.schedule();
  }

  /** Says `text` (a reply to the turn's message) when `inMs` have passed, unless the turn ended first: its coming timeout, while there is time to act. */
  warnLater(text: RichText, inMs: number): void {
    clearTimeout(this.timeoutWarning);
    this.timeoutWarning = setTimeout(
      () => void warnIfFails(this.out.send(this.to, text, { replyTo: this.options.replyTo }), this.options.log, 'the timeout warning'),
      inMs,
    );
    this.timeoutWarning.unref();
  }

  /** Final state of the progress message, then the answer or the error. */
  async finish(outcome: TurnOutcome): Promise<void> {
    this.closed = true;
    clearTimeout(this.timeoutWarning);
    clearTimeout(this.deferred);
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    if (this.working) this.showWorking(false);
    await this.sending;
    await this.editing;
    // A failure's error comes as a message of its own (below): the progress does not say it a second time.
    const detail = outcome.status === 'stopped' ? outcome.error : undefined;
    this.progress.finish(outcome.status, detail);
    // Why the agent could not reach a host stays under the answer, which replaces the progress message that said it.
    const blocked = this.progress.blocked.length ? this.progress.blocked.join('\n') : undefined;
    const handoff = outcome.status === 'completed' ? this.options.answerFooter?.(outcome.sessionId) : undefined;
    const footer = blocked && handoff ? lines([blocked, handoff]) : blocked !== undefined ? plain(blocked) : handoff;
    if (outcome.status === 'completed' && (await this.answerInPlace(outcome.text, outcome.notice, footer))) return;
    if (this.ref) await this.out.edit(this.ref, this.progress.render(), { buttons: [] }).catch((error) => this.log('final progress edit failed', error));
    if (outcome.notice)
      await this.out.send(this.to, plain(`ℹ️ ${outcome.notice}`), { replyTo: this.options.replyTo }).catch((error) => this.log('notice failed', error));
    if (outcome.status === 'completed') {
      await deliverMarkdown(this.out, this.to, outcome.text, {
        replyTo: this.options.replyTo,
        documentOverChars: this.options.documentOverChars,
        footer,
      });
    } else if (outcome.status !== 'stopped') {
      // A new message, not only the edit: edits do not notify, and the user should know.
      const icon = outcome.status === 'timed_out' ? '⌛' : '❌';
      await this.out.send(this.to, plain([`${icon} ${outcome.error ?? 'the turn failed'}`, ...this.progress.blocked].join('\n')), {
        replyTo: this.options.replyTo,
      });
    }
  }

  /**
   * A quick turn's answer takes the place of its progress message when it fits in one
   * message: one call instead of an edit and a new message. A longer turn's answer comes as a
   * new message, which notifies someone who has stopped watching. Returns whether it did.
   */
  private async answerInPlace(text: string, notice: string | undefined, footer: RichText | undefined): Promise<boolean> {
    if (!this.ref || Date.now() - this.progress.startedAt > ANSWER_IN_PLACE_WITHIN_MS) return false;
    const summary = this.progress.summary();
    const parts = planMarkdown(text, this.out.fit(this.to), {
      documentOverChars: this.options.documentOverChars,
      footer: footer ? lines([summary, footer]) : summary,
    });
    const [only] = parts;
    if (parts.length !== 1 || only?.kind !== 'text') return false;
    // Deleted meanwhile, or refused: the answer goes as a message of its own.
    const shown = await this.out.edit(this.ref, only.text, { buttons: [] }).catch((error: unknown) => {
      this.log('answer in place of the progress failed', error);
      return false;
    });
    if (!shown) return false;
    if (notice) await this.out.send(this.to, plain(`ℹ️ ${notice}`), { replyTo: this.options.replyTo }).catch((error) => this.log('notice failed', error));
    return true;
  }

  private buttons(): Button[][] {
    return this.options.stopButton ? [[this.options.stopButton]] : [];
  }

  private schedule(): void {
    if (this.closed) return;
    if (!this.ref || this.timer || this.editing) {
      this.dirty = true;
      return;
    }
    const wait = Math.max(0, this.lastEditAt + this.options.editIntervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  private flush(): void {
    if (this.closed || !this.ref) return;
    this.dirty = false;
    this.lastEditAt = Date.now();
    this.editing = this.out
      .edit(this.ref, this.progress.render(), { buttons: this.buttons() })
      .catch((error) => this.log('progress edit failed', error))
      .finally(() => {
        this.editing = undefined;
        if (this.dirty) this.schedule();
      });
  }

  /** The app's sign of the agent at work, on or off: a failure is logged, and the turn goes on. */
  private showWorking(working: boolean): void {
    if (!this.out.working) return;
    this.working = working;
    this.out.working(this.to, working).catch((error) => this.log('showing the agent at work failed', error));
  }

  private log(message: string, error: unknown): void {
    this.options.log.warn(`${message}: ${(error as Error)?.message ?? String(error)}`);
  }
}
