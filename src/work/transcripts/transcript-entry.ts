import type { TurnStatus } from '../../engine/session/running-turn.ts';

/**
 * One line of a chat's transcript: what the bridge saw of a turn of its main session, as it
 * happened. A turn's lines share its id; which CLI session it belongs to is said by its
 * `session` line (the CLI named it) and its `end`.
 */
export type TranscriptEntry = { turn: string; at: number } & (
  | {
      kind: 'prompt';
      text: string;
      /** Who sent it (`<transport>:<id>`); none: the bridge's own (a run's result, a schedule). */
      by?: string;
      /** Who sent it, as people read it: a person's name, `⏰ Schedule #2`, `webhook ci`. */
      sender?: string;
      /** The CLI session the turn resumed: a CLI that names a resumed session anew still continues it. */
      from?: string;
      cli: string;
    }
  | { kind: 'session'; session: string; model?: string }
  | { kind: 'text'; text: string; nested?: true }
  /** A message sent into the turn while it worked (steering). */
  | { kind: 'steer'; text: string; by?: string; sender?: string }
  /** A tool call: what it does in a few words (`npm test`, `src/a.ts`), and its input as JSON (its start, for a long one). */
  | { kind: 'tool'; id: string; name: string; summary: string; input: string; nested?: true }
  | { kind: 'tool_end'; id: string; isError: boolean; output: string }
  | { kind: 'end'; status: TurnStatus; session?: string; answer: string; error?: string; costUsd?: number; durationMs?: number }
);
