import type { AgentSpans } from '../../services/telemetry/traced-agent.ts';
import type { TurnPresenter } from '../presenter/turn-presenter.ts';

/** A message sent into a turn at work: what a turn of its own needs, should the CLI take it as one. */
export interface SteeredMessage {
  text: string;
  messageId?: string;
  by: string;
}

/** The turn of a chat's session now at work, as the Stop button, /status and its approvals find it. */
export interface CurrentTurn {
  id: string;
  presenter: TurnPresenter;
  startedAt: number;
  /** Whose message started it. */
  by: string;
  /** Who set this work going (`<transport>:<id>`): the one who typed it, or a schedule's maker; none for work nobody started (a webhook). */
  startedBy?: string;
  /** The messages sent into it, by the id its CLI knows them by. */
  steers: Map<string, SteeredMessage>;
  /** Its trace: what happens to the turn (a steer, an interrupt) is an event of its span. */
  spans?: AgentSpans;
}
