import type { AgentEvent } from '../../kernel/protocols/events.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';
import { displayName } from '../subagents/record.ts';
import { withAnswer, type Conversation, type ConversationTurn, type Step } from './conversation.ts';
import { toolInput } from './tool-input.ts';
import { toolSummary } from '../presentation/tool-summary.ts';

/**
 * A run as a conversation, from its decoded log: its task is the first turn's prompt; each
 * result the CLI reported ends a turn (a message sent to the run makes the next one).
 */
export function runConversation(run: SubagentRunRecord, events: readonly AgentEvent[], chat: string): Conversation {
  const turns: ConversationTurn[] = [];
  let turn: ConversationTurn = {
    at: run.startedAt ?? run.createdAt,
    prompt: run.task,
    ...(run.requester.kind === 'user'
      ? { by: personOf(run.requester.userId, run.chat.transport), ...(run.requester.name ? { sender: run.requester.name } : {}) }
      : {}),
    steps: [],
  };
  const tools = new Map<string, Extract<Step, { kind: 'tool' }>>();
  let session: string | undefined;
  let model = run.model;
  let open = true;
  for (const event of events) {
    if (!open && (event.type === 'text' || event.type === 'tool_start')) {
      turn = { at: turn.at, steps: [] };
      open = true;
    }
    switch (event.type) {
      case 'started':
        session ??= event.sessionId;
        model ??= event.model;
        break;
      case 'text':
        if (event.text.trim()) turn.steps.push({ kind: 'text', text: event.text, ...(event.parentId ? { nested: true as const } : {}) });
        break;
      case 'tool_start': {
        const step = {
          kind: 'tool' as const,
          id: event.id,
          name: event.name,
          summary: toolSummary(event.name, event.input),
          input: toolInput(event.input),
          ...(event.parentId ? { nested: true as const } : {}),
        };
        tools.set(event.id, step);
        turn.steps.push(step);
        break;
      }
      case 'tool_end': {
        const step = tools.get(event.id);
        if (step) Object.assign(step, { output: event.preview, ...(event.isError ? { isError: true } : {}) });
        break;
      }
      case 'result':
        if (event.isError) turn.error = event.text;
        else turn.answer = event.text;
        turn.status = event.isError ? 'failed' : 'completed';
        if (event.costUsd !== undefined) turn.costUsd = event.costUsd;
        if (event.durationMs !== undefined) turn.durationMs = event.durationMs;
        turn.steps = withAnswer(turn.steps, turn.answer);
        turns.push(turn);
        open = false;
        break;
      case 'error':
        turn.error = event.message;
        break;
    }
  }
  // A turn still at work, or cut short before its result.
  if (open && (turn.prompt !== undefined || turn.steps.length)) turns.push(turn);
  const last = turns.at(-1);
  if (last && run.error && !last.error && run.status !== 'completed') last.error = run.error;
  return {
    kind: 'run',
    title: `Run #${run.number} ${displayName(run)}`,
    chat,
    cli: run.cli,
    ...(model ? { model } : {}),
    ...(session ? { session } : {}),
    status: run.status,
    turns,
  };
}

/** A person as the transcripts name them (`<transport>:<id>`): a run's record keeps the transport's own id. */
function personOf(userId: string, transport: string): string {
  return userId.includes(':') ? userId : `${transport}:${userId}`;
}
