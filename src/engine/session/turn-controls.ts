import type { TurnHandlers, TurnLimits, TurnOutcome } from './running-turn.ts';

/** How one sent turn is run and followed: its timeout and its callbacks. */
export interface TurnControls extends TurnHandlers, TurnLimits {
  /** Called when this turn leaves the queue and its CLI starts. */
  onStart?(): void;
  /** Run in the CLI's plan mode (live CLIs only): the agent proposes a plan and waits for approval. */
  planning?: boolean;
  /** The id its owner knows it by (a chat's pending message), the same after a restart of the bridge. */
  turnId?: string;
  /** It takes up turn `turnId`, which a restart of the bridge cut short: where that one went on elsewhere (a worker), it is followed, not run again. */
  takingUp?: boolean;
  /** How the turn its live CLI takes by itself of messages steered into this one is followed (see TurnHandlers.onCarried): before the queued turns, as the CLI has it already. */
  onCarried?(ids: string[]): CarriedTurn;
}

/** A turn the CLI took by itself from messages sent into another (TurnControls.onCarried): its callbacks, and who hears its outcome. */
export interface CarriedTurn extends TurnControls {
  ended(outcome: TurnOutcome): void;
}

/** What a stop ended: whether a turn was running, and how many messages it dropped (queued, or sent to the CLI and not yet taken). */
export interface Stopped {
  running: boolean;
  dropped: number;
}
