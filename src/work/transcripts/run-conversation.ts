import type { AgentEvent } from '../../kernel/protocols/events.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';
import { displayName } from '../subagents/record.ts';
import { conversationTurn, linesByTurn, type Conversation } from './conversation.ts';
import type { TranscriptEntry } from './transcript-entry.ts';
import { entryOf } from './turn-recorder.ts';

/**
 * A run as a conversation, from its decoded log read as the record a chat's turns keep: its
 * task is the first turn's prompt; each result the CLI reported ends a turn (a message sent to
 * the run makes the next one).
 */
export function runConversation(run: SubagentRunRecord, events: readonly AgentEvent[], chat: string): Conversation {
  const at = run.startedAt ?? run.createdAt;
  const by =
    run.requester.kind === 'user'
      ? { by: personOf(run.requester.userId, run.chat.transport), ...(run.requester.name ? { sender: run.requester.name } : {}) }
      : {};
  const entries: TranscriptEntry[] = [{ turn: '0', at, kind: 'prompt', text: run.task, cli: run.cli, ...by }];
  /** What an `error` event said, by turn: a turn's own failed result says it instead. */
  const errors = new Map<string, string>();
  let turn = 0;
  let open = true;
  for (const event of events) {
    if (!open && (event.type === 'text' || event.type === 'tool_start')) {
      turn++;
      open = true;
    }
    const id = String(turn);
    if (event.type === 'error') errors.set(id, event.message);
    else if (event.type !== 'result') {
      const entry = entryOf(event, id, at);
      if (entry) entries.push(entry);
    } else {
      const { isError, text, costUsd, durationMs } = event;
      entries.push({
        turn: id,
        at,
        kind: 'end',
        status: isError ? 'failed' : 'completed',
        answer: isError ? '' : text,
        ...(isError ? { error: text } : {}),
        costUsd,
        durationMs,
      });
      open = false;
    }
  }
  const turns = linesByTurn(entries).map((lines) => {
    const kept = conversationTurn(lines);
    const error = errors.get(lines[0]!.turn);
    if (error && !kept.error) kept.error = error;
    return kept;
  });
  const last = turns.at(-1);
  if (last && run.error && !last.error && run.status !== 'completed') last.error = run.error;
  const started = events.filter((event) => event.type === 'started');
  const model = run.model ?? started.find((event) => event.model)?.model;
  return {
    kind: 'run',
    title: `Run #${run.number} ${displayName(run)}`,
    chat,
    cli: run.cli,
    model,
    session: started[0]?.sessionId,
    status: run.status,
    turns,
  };
}

/** A person as the transcripts name them (`<transport>:<id>`): a run's record keeps the transport's own id. */
function personOf(userId: string, transport: string): string {
  return userId.includes(':') ? userId : `${transport}:${userId}`;
}
