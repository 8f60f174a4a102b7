import type { AgentEvent } from '../../kernel/protocols/events.ts';
import type { SubagentRunRecord } from '../../work/subagents/record.ts';
import { displayName } from '../../work/subagents/record.ts';
import { chatRef, isNoChat, NO_CHAT, qualifiedId, type ChatRef as Chat } from '../../kernel/ports/chat.ts';
import type { AgentEvent as ApiEvent } from './generated/jsonl_bridge/v1/AgentEvent.ts';
import type { ChatRef } from './generated/jsonl_bridge/v1/ChatRef.ts';
import type { SubagentInfo } from './generated/jsonl_bridge/v1/SubagentInfo.ts';
import type { SubagentStatus } from './generated/jsonl_bridge/v1/SubagentStatus.ts';
import type { Delivery } from './generated/jsonl_bridge/v1/Delivery.ts';
import type { InputStage } from './generated/jsonl_bridge/v1/InputStage.ts';
import type { MessageDelivery } from '../../work/subagents/execution.ts';

/** A run as the API shows it. */
export function subagentInfo(run: SubagentRunRecord, bareNumbers: string): SubagentInfo {
  return {
    subagentId: run.runId,
    number: run.number,
    chat: apiChat(run.chat, bareNumbers),
    name: displayName(run),
    cli: run.cli,
    model: run.model ?? '',
    status: `SUBAGENT_STATUS_${run.status.toUpperCase()}` as SubagentStatus,
    prompt: run.task,
    sessionId: run.childSessionId ?? '',
    result: run.result ?? '',
    error: run.error ?? '',
    createdAtMs: run.createdAt,
    startedAtMs: run.startedAt ?? 0,
    endedAtMs: run.endedAt ?? 0,
    costUsd: run.costUsd ?? 0,
    steps: run.steps ?? 0,
    worker: run.worker ?? '',
    orchestrationId: run.orchestration?.id ?? '',
  };
}

/** A decoded event of a run's log, at its place in the log; none for a model call's usage, which the run's cost sums up. */
export function apiEvent(event: AgentEvent, sequence: number): ApiEvent | undefined {
  const base = { sequence, timestampMs: Date.now(), parentToolUseId: 'parentId' in event ? (event.parentId ?? '') : '' };
  switch (event.type) {
    case 'started':
      return { ...base, started: { sessionId: event.sessionId, model: event.model ?? '' } };
    case 'text':
      return { ...base, text: { text: event.text } };
    case 'tool_start':
      return { ...base, toolStart: { id: event.id, name: event.name, inputJson: JSON.stringify(event.input ?? null) } };
    case 'tool_end':
      return { ...base, toolEnd: { id: event.id, isError: event.isError, preview: event.preview } };
    case 'result':
      return { ...base, result: { text: event.text, isError: event.isError, costUsd: event.costUsd ?? 0, turns: event.turns ?? 0 } };
    case 'error':
      return { ...base, error: { message: event.message } };
    case 'log':
      return { ...base, log: { line: event.line } };
    case 'input':
      return { ...base, input: { messageId: event.id, stage: `INPUT_STAGE_${event.state.toUpperCase()}` as InputStage } };
    case 'permission':
      // The control channel's traffic has no message of its own: it reads as the log line it is.
      return { ...base, log: { line: `permission asked for ${event.tool}` } };
    case 'control':
      return { ...base, log: { line: `control request ${event.requestId} ${event.ok ? 'done' : `failed: ${event.error ?? ''}`}` } };
    case 'blocked':
      return { ...base, blocked: { host: event.host, why: event.why } };
    case 'exit':
      return { ...base, exit: { code: event.code ?? -1, signal: event.signal ?? '' } };
    case 'usage':
      return undefined;
  }
}

/** Where a message for a run went, as the API names it. */
export function apiDelivery(via: MessageDelivery['via']): Delivery {
  return `DELIVERY_${via.toUpperCase()}` as Delivery;
}

/** A chat as the API shows it: its `transport:chat` and thread, and the numbers too where they are numbers. */
export function apiChat(chat: Chat, bareNumbers: string): ChatRef {
  if (isNoChat(chat)) return { chatId: 0, threadId: 0, chat: '', thread: '' };
  const numeric = chat.transport === bareNumbers;
  const number = (id: string | undefined) => (numeric && id !== undefined && /^-?\d+$/.test(id) ? Number(id) : 0);
  return { chatId: number(chat.chat), threadId: number(chat.thread), chat: `${chat.transport}:${chat.chat}`, thread: chat.thread ?? '' };
}

/**
 * The chat a request names: `chat` ("transport:chat", or a bare number), else `chat_id` (a
 * number: the chat of the transport whose ids are numbers); neither: the API's own runs.
 * Undefined: `chat` names no chat.
 */
export function chatOf(ref: ChatRef | null | undefined, bareNumbers: string): Chat | undefined {
  const written = ref?.chat?.trim() || (Number(ref?.chatId ?? 0) ? String(ref!.chatId) : '');
  if (!written) return NO_CHAT;
  const qualified = qualifiedId(written, bareNumbers);
  if (!qualified) return undefined;
  const split = qualified.indexOf(':');
  const thread = ref?.thread?.trim() || (Number(ref?.threadId ?? 0) ? String(ref!.threadId) : undefined);
  return chatRef(qualified.slice(0, split), qualified.slice(split + 1), thread);
}
