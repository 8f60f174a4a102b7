import type { AgentEvent, ExitEvent, QuotaLimit, ResultEvent, Usage } from '../../kernel/protocols/events.ts';
import type { SteeredMessage } from './live-input.ts';

// What a turn under way is, whichever way its CLI runs (a process for the turn, one kept
// between turns, or one on a worker): what it answers, the handlers it feeds, its limits and
// its outcome.

export type TurnStatus = 'completed' | 'failed' | 'stopped' | 'timed_out';

export interface TurnOutcome {
  status: TurnStatus;
  /** The answer (on failure: whatever the agent said before failing). */
  text: string;
  /** Why the turn did not complete, in words a user can act on. */
  error?: string;
  result?: ResultEvent;
  /** The CLI's session id, to resume next turn. */
  sessionId?: string;
  exit: ExitEvent;
  durationMs: number;
  /** Something the chat should know about how the turn ran (its old session was gone, say). */
  notice?: string;
  /** It failed for its CLI's quota, credit or rate limit: the work can go on in another CLI, or once the limit resets. */
  limit?: QuotaLimit;
  /**
   * What its model calls used and cost as the credential proxy metered them (a CLI in walls
   * holding no key): the turn's cost, whatever the CLI says (the result carries the same).
   */
  metered?: { usage: Usage; costUsd?: number };
}

export interface TurnHandlers {
  /** Every decoded event, in order; `exit` is always the last. */
  onEvent?: (event: AgentEvent) => void;
  /** Every raw stdout line, for run logs. */
  onLine?: (raw: string) => void;
  /**
   * Messages sent into the turn (`send`) that the CLI takes, after the turn's answer, as a
   * turn of its own (a live CLI they reached after its result): the turn ends with its own
   * answer, and `follow` starts following that turn with its handlers. Without this handler
   * the turn lasts until they are answered too, and the last answer is its own.
   */
  onCarried?: (ids: string[], follow: (handlers: TurnHandlers, limits: TurnLimits) => RunningTurn) => void;
  /**
   * Messages sent into the turn that its CLI turned out unable to take while it works (they
   * were held until it showed whether it names them): they go as a turn of their own. Without
   * this handler such a message is refused at once while the CLI has not shown it.
   */
  onUnsteered?: (messages: SteeredMessage[]) => void;
}

/** How long a turn may run, and how long its CLI may show no progress of the model. */
export interface TurnLimits {
  /** Stop the turn after this long and report it as timed out. */
  timeoutMs?: number;
  /** End the turn when its CLI shows no progress of the model this long (see SilenceWatch). */
  silenceMs?: number;
}

/** A turn under way, whichever way its CLI runs: one process for the turn (Turn), or one kept between turns (LiveCli). */
export interface RunningTurn {
  readonly done: Promise<TurnOutcome>;
  /** A message for the CLI while it works (within its turn if it has more to do, else as the one after); false when it takes no more (send it as a turn). */
  send(text: string, id: string): boolean;
  stop(reason: string): Promise<void>;
  holdTimeout(): () => void;
  /** Messages sent to it that the CLI has not started on: what a stop drops. */
  readonly untaken: number;
  /** Whether its CLI names the messages it is sent back (undefined: not known yet, or it takes none while it works). */
  readonly namesMessages?: boolean | undefined;
}
