import type { PermissionDecision } from './events.ts';

/**
 * The control messages of a CLI that is driven while it runs (Claude Code's stdio control
 * channel), each one line of its standard input. Requests carry an id the CLI's `control`
 * event names back.
 */
export interface LiveControl {
  /** End the turn at work; the process and its session stay. */
  interrupt(requestId: string): string;
  /** Enter or leave plan mode (the agent proposes before it changes anything). */
  setPlanning(requestId: string, planning: boolean): string;
  /** The answer to a `permission` event. */
  decide(requestId: string, decision: PermissionDecision): string;
}
