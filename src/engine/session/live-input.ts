import type { AgentEvent, ResultEvent } from '../../kernel/protocols/events.ts';
import { ProcessMessages } from './process-messages.ts';

/**
 * After a result, how long a CLI that has not started on a message may stay silent before
 * its input is closed anyway: it takes a waiting message within milliseconds of a result, so
 * silence means it never will (a release that stopped naming messages back).
 */
export const SILENT_CLOSE_MS = 5000;

/**
 * Messages for a CLI that reads them while it works (Claude Code's `--input-format
 * stream-json`): the turn's prompt is the first, and more can come until the CLI has answered
 * them all, when its input is closed and it exits.
 *
 * The CLI names each message back by its id: `queued`, `started` (taken into a turn: the one
 * running, when it has more to do, or the next) and `completed`; a result lists the messages
 * its turn answered. Input stays open while any message is unanswered or a turn is running,
 * so a message never meets a closed door. A CLI that never names a message is taken to have
 * answered all of them with its result, and one gone silent after a result is closed after
 * SILENT_CLOSE_MS.
 *
 * A message that reaches the CLI after its result (written as the turn ended) is a turn of
 * the CLI's own, with its own result: `leftBy` names such messages, and `hand` passes them to
 * the input of the turn that follows them.
 *
 * Only a CLI that has shown it names messages (ProcessMessages) is written one past the
 * prompt: from one that does not, an answer to a message written as a turn ends could not be
 * told from the next turn's, so such a message is refused and goes as a turn of its own. One
 * sent before the CLI has shown either way (its first lines may not be read yet: a run's
 * output comes in batches) is held until it has, where the caller can take it back
 * (`unsteered`): then written, or given back to go as a turn.
 */
export class LiveInput {
  private readonly unanswered = new Set<string>();
  /** Every message of this input (written here, or handed to it). */
  private readonly own = new Set<string>();
  /** When its first message was written here. */
  private firstSentAt: number | undefined;
  private readonly process: ProcessMessages;
  /** Messages the CLI has started on (the rest of `unanswered` it holds, or has not read yet). */
  private readonly taken = new Set<string>();
  /** The first message: the turn's own prompt, not one sent into it. */
  private prompt: string | undefined;
  /** The CLI names messages back (so its silence about one means it is not done). */
  private namesThem = false;
  /** A turn is under way: a message started and no result since. */
  private working = false;
  private answeredOnce = false;
  private closed = false;
  private silence: NodeJS.Timeout | undefined;
  /** Messages past the prompt waiting for the CLI to show whether it names them. */
  private held: SteeredMessage[] = [];
  private readonly unsteered: ((messages: SteeredMessage[]) => void) | undefined;

  constructor(
    private readonly io: {
      /** One message to the CLI's input; false when the input could not take it (the CLI is gone). */
      send(text: string, id: string): boolean;
      end(): void;
    },
    {
      handed,
      process = new ProcessMessages(),
      unsteered,
    }: {
      /** Messages already written, which the CLI answers in this turn of its own (see `hand`): the first stands as its prompt. */
      handed?: HandedMessages;
      /** What the CLI's process has been sent before, and whether it names messages: one process's for all its turns. */
      process?: ProcessMessages;
      /** Takes back messages held for a CLI that turned out not to name them (or ended first): they go as a turn. */
      unsteered?: (messages: SteeredMessage[]) => void;
    } = {},
  ) {
    this.process = process;
    this.unsteered = unsteered;
    if (!handed) return;
    this.prompt = handed.ids[0];
    this.namesThem = true;
    for (const id of handed.ids) {
      this.unanswered.add(id);
      this.own.add(id);
    }
    for (const id of handed.taken) this.taken.add(id);
  }

  /** Writes a message for the CLI; false when its input is closed, or it is past the prompt and the CLI has not shown it names messages (send it as a turn). */
  send(text: string, id: string): boolean {
    if (this.closed) return false;
    if (this.prompt !== undefined && this.process.names === undefined && this.unsteered) {
      this.held.push({ text, id });
      return true;
    }
    if (this.prompt !== undefined && this.process.names !== true) return false;
    return this.write(text, id);
  }

  /** The CLI has shown whether it names messages: the held ones are written, or given back. */
  private release(): void {
    // Those it refuses (its input gone meanwhile) are given back.
    if (this.process.names === true && !this.closed) this.held = this.held.filter((message) => !this.write(message.text, message.id));
    this.giveBack();
  }

  private giveBack(): void {
    const held = this.held;
    this.held = [];
    if (held.length) this.unsteered?.(held);
  }

  private write(text: string, id: string): boolean {
    if (!this.io.send(text, id)) return false;
    this.prompt ??= id;
    this.firstSentAt ??= Date.now();
    this.process.sent(id);
    this.own.add(id);
    this.unanswered.add(id);
    return true;
  }

  /** Whether the CLI names messages back (undefined until its output shows it): only then does it take one while it works. */
  get namesMessages(): boolean | undefined {
    return this.process.names;
  }

  /** Whether `result` answers an earlier message than this input's, and so is not this turn's (ProcessMessages.answersEarlier). */
  answersEarlier(result: ResultEvent): boolean {
    return this.process.answersEarlier(result, this.own, this.firstSentAt);
  }

  /** Every event the CLI's output decodes to, in order: closes the input once all is answered. */
  observe(event: AgentEvent): void {
    this.process.observe(event);
    if (this.held.length && this.process.names !== undefined) this.release();
    if (this.closed) return;
    clearTimeout(this.silence);
    if (event.type === 'input') {
      this.namesThem = true;
      if (event.state === 'started') {
        this.working = true;
        this.taken.add(event.id);
      }
      if (event.state === 'completed' || event.state === 'cancelled') this.unanswered.delete(event.id);
    } else if (event.type === 'result') {
      this.working = false;
      this.answeredOnce = true;
      if (event.answered?.length) this.namesThem = true;
      for (const id of event.answered ?? []) this.unanswered.delete(id);
      if (!this.namesThem) this.unanswered.clear();
    }
    if (!this.answeredOnce || this.working) return;
    if (!this.unanswered.size) this.close();
    else this.silence = setTimeout(() => this.close(), SILENT_CLOSE_MS);
  }

  /**
   * The messages `result` leaves to a turn of the CLI's own after it: when it answers this
   * turn's prompt, those written here that it does not name and the CLI has not completed
   * (they reached it after that result). None from a CLI that does not name its messages, or
   * a result that does not answer the prompt (the turn is not over).
   */
  leftBy(result: ResultEvent): string[] {
    const answered = result.answered ?? [];
    if (!this.prompt || !answered.includes(this.prompt)) return [];
    return [...this.unanswered].filter((id) => !answered.includes(id));
  }

  /** Gives up `ids` (see `leftBy`) to the input of the turn that answers them; this one has answered the rest. */
  hand(ids: string[]): HandedMessages {
    for (const id of ids) this.unanswered.delete(id);
    return { ids, taken: ids.filter((id) => this.taken.has(id)) };
  }

  /** Messages sent into the turn (its prompt aside) that the CLI has not started on: what a stop drops. */
  get untaken(): number {
    return [...this.unanswered].filter((id) => id !== this.prompt && !this.taken.has(id)).length;
  }

  /** No more messages: the CLI finishes what it has and exits (what it was held is given back). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.giveBack();
    clearTimeout(this.silence);
    this.io.end();
  }
}

/** A message sent into a turn. */
export interface SteeredMessage {
  text: string;
  id: string;
}

/** Messages one turn's input gives to the next (LiveInput.hand): their ids, and those the CLI has started on. */
export interface HandedMessages {
  ids: string[];
  taken: string[];
}
