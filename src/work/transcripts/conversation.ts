import type { TranscriptEntry } from './transcript-entry.ts';

/**
 * A conversation as it is exported and shared: a chat's session or a run, turn by turn, each
 * turn its prompt, what the agent said and did on the way (tool calls with their input and the
 * start of their output), and its answer. Built from the bridge's own record of each turn
 * (TranscriptEntry: a chat's transcript, or a run's log read as one), never from the model.
 */
export interface Conversation {
  kind: 'session' | 'run';
  /** What it is, in a line: `Session with claude`, `Run #3 Notes`. */
  title: string;
  /** The chat it belongs to, as its people know it. */
  chat: string;
  cli: string;
  model?: string;
  /** The CLI's session id. */
  session?: string;
  /** A run's status (completed, failed, ...). */
  status?: string;
  turns: ConversationTurn[];
  /** Turns of it the bridge no longer keeps (its records are bounded): the export says so. */
  earlierTurnsGone?: boolean;
}

export interface ConversationTurn extends Pick<LineOf<'prompt'>, 'by' | 'sender'>, Pick<LineOf<'end'>, 'error' | 'costUsd' | 'durationMs'> {
  at: number;
  /** What started it; none: a turn of a run after its task (a message sent to it). */
  prompt?: string;
  steps: TurnStep[];
  answer?: string;
  /** How it ended: completed, failed, stopped, timed_out; none: still at work (or cut by a restart). */
  status?: string;
}

/** A line of the record of one kind, but for the turn and the time it shares with the turn's other lines. */
type LineOf<K extends TranscriptEntry['kind']> = Omit<Extract<TranscriptEntry, { kind: K }>, 'turn' | 'at' | 'kind'>;

export type TurnStep =
  | ({ kind: 'text' } & LineOf<'text'>)
  /** A message sent into the turn while it worked. */
  | ({ kind: 'message' } & LineOf<'steer'>)
  /** A tool call, and once it ended the start of its output. */
  | ({ kind: 'tool' } & LineOf<'tool'> & { output?: string; isError?: boolean });

/** A turn's steps, from its tool calls and prose in order; the last prose, when it is the answer, is the answer's. */
export function withAnswer(steps: TurnStep[], answer: string | undefined): TurnStep[] {
  const last = steps.at(-1);
  return answer && last?.kind === 'text' && !last.nested && last.text.trim() === answer.trim() ? steps.slice(0, -1) : steps;
}

/** One turn from its lines of the record, in order: its prompt, its steps, and how it ended. */
export function conversationTurn(lines: readonly TranscriptEntry[]): ConversationTurn {
  const turn: ConversationTurn = { at: lines[0]!.at, steps: [] };
  const tools = new Map<string, Extract<TurnStep, { kind: 'tool' }>>();
  for (const line of lines) {
    switch (line.kind) {
      case 'prompt':
        Object.assign(turn, { prompt: line.text, by: line.by || undefined, sender: line.sender || undefined });
        break;
      case 'text':
        turn.steps.push({ kind: 'text', text: line.text, ...(line.nested ? { nested: true as const } : {}) });
        break;
      case 'steer':
        turn.steps.push({ kind: 'message', text: line.text, ...(line.by ? { by: line.by } : {}), ...(line.sender ? { sender: line.sender } : {}) });
        break;
      case 'tool': {
        const { id, name, summary, input } = line;
        const step = { kind: 'tool' as const, id, name, summary, input, ...(line.nested ? { nested: true as const } : {}) };
        tools.set(id, step);
        turn.steps.push(step);
        break;
      }
      case 'tool_end': {
        const step = tools.get(line.id);
        if (step) Object.assign(step, { output: line.output, ...(line.isError ? { isError: true } : {}) });
        break;
      }
      case 'end': {
        const { status, answer, error, costUsd, durationMs } = line;
        Object.assign(turn, { status, answer: answer || undefined, error: error || undefined, costUsd, durationMs });
        break;
      }
    }
  }
  turn.steps = withAnswer(turn.steps, turn.answer);
  return turn;
}

/** A record's lines by turn, in the order each turn began. */
export function linesByTurn(entries: readonly TranscriptEntry[]): TranscriptEntry[][] {
  const byTurn = new Map<string, TranscriptEntry[]>();
  for (const entry of entries) {
    const lines = byTurn.get(entry.turn) ?? [];
    lines.push(entry);
    byTurn.set(entry.turn, lines);
  }
  return [...byTurn.values()];
}
