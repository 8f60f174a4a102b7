import type { Adapter } from '../adapters/load.ts';
import type { CliExit } from '../process/cli-process.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { AgentEvent, ResultEvent } from '../../kernel/protocols/events.ts';
import { LiveInput, type HandedMessages } from './live-input.ts';
import type { ProcessMessages } from './process-messages.ts';
import { LocalTurn } from './turn.ts';
import type { TurnHandlers, TurnLimits, TurnOutcome } from './running-turn.ts';
import { TurnCourse } from './turn-course.ts';

/** What a turn asks of the live CLI it runs in. */
export interface TurnHost {
  readonly adapter: Adapter;
  /** What its process has been sent, and whether it names messages back. */
  readonly messages: ProcessMessages;
  sendMessage(text: string, id: string): boolean;
  interrupt(turn: LiveTurn): Promise<void>;
  /** The messages this turn leaves unanswered become a turn of the CLI's own. */
  carry(from: LiveTurn, handed: HandedMessages): void;
}

/**
 * One turn of a LiveCli: from its prompt until the CLI has answered every message of it (or
 * the process ended), or until its answer when the messages it has not answered go to a turn of
 * the CLI's own (LiveCli.carry).
 */
export class LiveTurn extends LocalTurn {
  readonly done: Promise<TurnOutcome>;
  readonly course: TurnCourse;
  protected readonly input: LiveInput;
  /** Aborts as the turn ends: what waits on its behalf (a person's answer) stops waiting. */
  readonly ended = new AbortController();
  /** The turn's own tool calls that have not ended (a background agent's ends with its notification). */
  private readonly openCalls = new Set<string>();
  private awaitingBackground = false;
  private settle!: (outcome: TurnOutcome) => void;

  constructor(
    private readonly cli: TurnHost,
    handlers: TurnHandlers,
    limits: TurnLimits,
    private readonly log: Log | undefined,
    /** Messages the CLI answers in this turn of its own, already written (LiveCli.carry). */
    handed?: HandedMessages,
  ) {
    super();
    this.done = new Promise((resolve) => (this.settle = resolve));
    this.input = new LiveInput({ send: (text, id) => cli.sendMessage(text, id), end: () => this.answered() }, { handed, process: cli.messages });
    this.course = new TurnCourse(cli.adapter.name, handlers, limits, log, () => cli.interrupt(this));
  }

  observe(event: AgentEvent): void {
    if (event.type === 'result' && this.input.answersEarlier(event)) {
      // The answer to a message of an earlier turn, written before this turn's: never this turn's answer.
      this.log?.warn({ cli: this.cli.adapter.name }, 'a result for an earlier message came during a turn: it is not taken as that turn’s answer');
      return;
    }
    if (event.type === 'tool_start' && !event.parentId) this.openCalls.add(event.id);
    else if (event.type === 'tool_end') this.openCalls.delete(event.id);
    this.course.observe(event);
    if (event.type === 'result' && this.endsBefore(event)) return;
    this.input.observe(event);
    if (this.awaitingBackground && event.type === 'result' && !this.openCalls.size) this.answered();
  }

  /**
   * A result that answers the turn while messages sent into it wait for a turn of the CLI's
   * own (they reached it after this result, as Claude Code takes a message after its result):
   * with a follower for them (TurnHandlers.onCarried), this turn ends here with its own answer
   * and that turn carries them. Returns whether it did.
   */
  private endsBefore(result: ResultEvent): boolean {
    if (!this.course.handlers.onCarried || this.course.stopReason || this.openCalls.size) return false;
    const left = this.input.leftBy(result);
    if (!left.length) return false;
    this.cli.carry(this, this.input.hand(left));
    this.end({ code: 0, signal: null }, '');
    return true;
  }

  /** Every message answered: the turn is over, the process stays. */
  private answered(): void {
    // A background agent (a Task call still open) still works: when it ends, the CLI answers its
    // notification with a turn of its own, whose result is this turn's answer, as in a one-shot run.
    if (this.openCalls.size && !this.course.stopReason) {
      this.awaitingBackground = true;
      return;
    }
    this.end({ code: 0, signal: null }, '');
  }

  /** The turn is over: every message answered, or its process ended during it (a crash, a stop), which ends it too. */
  end(exit: CliExit, stderr: string): void {
    if (this.ended.signal.aborted) return;
    this.ended.abort();
    this.input.close();
    this.settle(this.course.finish(exit, stderr));
  }
}
