import type { AgentEvent } from '../../kernel/protocols/events.ts';
import { toolSummary } from '../presentation/tool-summary.ts';
import type { TurnOutcome } from '../../engine/session/turn.ts';
import { toolInput } from './tool-input.ts';
import type { Transcripts } from './transcripts.ts';

/** What a turn's transcript is told at its start. */
export interface TurnStart {
  chat: string;
  turn: string;
  text: string;
  by: string;
  /** Who sent it, as people read it. */
  sender?: string;
  cli: string;
}

/** One turn's lines of its chat's transcript, as the turn goes: its prompt, its events, its end. */
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
      const nested = 'parentId' in event && event.parentId ? { nested: true as const } : {};
      switch (event.type) {
        case 'started':
          transcripts.record(chat, { turn, at: at(), kind: 'session', session: event.sessionId, ...(event.model ? { model: event.model } : {}) });
          break;
        case 'text':
          if (event.text.trim()) transcripts.record(chat, { turn, at: at(), kind: 'text', text: event.text, ...nested });
          break;
        case 'tool_start':
          transcripts.record(chat, {
            turn,
            at: at(),
            kind: 'tool',
            id: event.id,
            name: event.name,
            summary: toolSummary(event.name, event.input),
            input: toolInput(event.input),
            ...nested,
          });
          break;
        case 'tool_end':
          transcripts.record(chat, { turn, at: at(), kind: 'tool_end', id: event.id, isError: event.isError, output: event.preview });
          break;
      }
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
        ...(outcome.result?.costUsd !== undefined ? { costUsd: outcome.result.costUsd } : {}),
      });
    },
  };
}
