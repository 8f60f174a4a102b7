import type { AgentEvent } from '../../kernel/protocols/events.ts';
import { toolSummary } from '../presentation/tool-summary.ts';
import type { TurnOutcome } from '../../engine/session/running-turn.ts';
import type { TranscriptEntry } from './transcript-entry.ts';
import type { Transcripts } from './transcripts.ts';

/** What a turn's transcript is told at its start: its chat (`chatKey`), and what its prompt's line says. */
export type TurnStart = { chat: string; by: string } & Pick<Extract<TranscriptEntry, { kind: 'prompt' }>, 'turn' | 'text' | 'sender' | 'cli'>;

/** One turn's lines of its chat's transcript, as the turn goes: its prompt, its events (entryOf), its end. */
export function turnRecorder(transcripts: Transcripts, start: TurnStart) {
  const { chat, turn } = start;
  const at = () => Date.now();
  return {
    /** `from`: the CLI session the turn resumes, if any (read when it starts: a turn before it may have begun one). */
    started(from: string | undefined): void {
      transcripts.record(chat, {
        turn,
        at: at(),
        kind: 'prompt',
        text: start.text,
        cli: start.cli,
        ...(start.by ? { by: start.by } : {}),
        ...(start.sender ? { sender: start.sender } : {}),
        ...(from ? { from } : {}),
      });
    },
    event(event: AgentEvent): void {
      const entry = entryOf(event, turn, at());
      if (entry) transcripts.record(chat, entry);
    },
    ended(outcome: TurnOutcome): void {
      transcripts.record(chat, {
        turn,
        at: at(),
        kind: 'end',
        status: outcome.status,
        answer: outcome.status === 'completed' ? outcome.text : '',
        durationMs: outcome.durationMs,
        ...(outcome.sessionId ? { session: outcome.sessionId } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        costUsd: outcome.result?.costUsd,
      });
    },
  };
}

/**
 * What an event of a CLI adds to the record of its turn: the session it names, its prose and
 * its tool calls; nothing for the rest. A chat's turns are recorded with it as they go, and a
 * run's log is read back through it, so both are one record.
 */
export function entryOf(event: AgentEvent, turn: string, at: number): TranscriptEntry | undefined {
  const nested = 'parentId' in event && event.parentId ? { nested: true as const } : {};
  switch (event.type) {
    case 'started':
      return { turn, at, kind: 'session', session: event.sessionId, ...(event.model ? { model: event.model } : {}) };
    case 'text':
      return event.text.trim() ? { turn, at, kind: 'text', text: event.text, ...nested } : undefined;
    case 'tool_start':
      return {
        turn,
        at,
        kind: 'tool',
        id: event.id,
        name: event.name,
        summary: toolSummary(event.name, event.input),
        input: toolInput(event.input),
        ...nested,
      };
    case 'tool_end':
      return { turn, at, kind: 'tool_end', id: event.id, isError: event.isError, output: event.preview };
    default:
      return undefined;
  }
}

/** A tool call's input as the export keeps it: its JSON, indented. */
function toolInput(input: unknown): string {
  if (input === undefined) return '';
  try {
    return JSON.stringify(input, null, 2) ?? '';
  } catch {
    // A cycle or a BigInt: no CLI prints one, but the export must not fail on it.
    return typeof input === 'string' ? input : '(an input that is not JSON)';
  }
}
