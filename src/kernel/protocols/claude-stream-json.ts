import type { AgentEvent, QuotaLimit, Usage, UsageEvent } from './events.ts';
import type { LiveWireFactory } from './live-wire.ts';
import { compact, isObject, num, preview, str, type DecodeStep, type Decoder, type Json } from './decoder.ts';
import { limitOfApiError, limitOfText } from './quota.ts';

/** The Task (Agent) calls whose agent works in the background: they end with its notification, not their tool result. */
type BackgroundTasks = ReadonlySet<string>;
const NONE: BackgroundTasks = new Set();

/**
 * What a turn's lines say before its result: the background Task calls, and a limit the model
 * API refused the turn for (the API error's line names its kind, a subscription's
 * `rate_limit_event` when it resets), which the error result carries.
 */
interface ClaudeState {
  background: BackgroundTasks;
  limit?: QuotaLimit;
  resetsAt?: number;
}
const INITIAL: ClaudeState = { background: NONE };

/**
 * Claude Code `--output-format stream-json --verbose`: `system`/`init`, one `assistant` line
 * per content block, `user` lines carrying tool results, a final `result`. Key order is not
 * fixed between releases, so everything is looked up by name.
 *
 * The one thing remembered: a Task call whose agent runs in the background (`task_started`
 * with `is_backgrounded`) answers at once ("Async agent launched"); its step ends when the
 * agent does (`task_notification`), so the progress shows it working until then.
 */
export const claudeStreamJson: Decoder<ClaudeState> = {
  protocol: 'claude-stream-json',
  metering: { reportsCost: true, reportsUsage: true },
  initial: () => INITIAL,
  // The line's type is read once and dispatched on: lines of every shape pass here, so each
  // property read is a generic (megamorphic) lookup, and a missing one costs the most.
  step(state, line) {
    if (!isObject(line)) return null;
    switch (line.type) {
      case 'assistant':
        if (line.is_api_error_message === true) {
          const limit = limitOfApiError(num(line.api_error_status), str(line.error), apiErrorText(line));
          return { state: limit ? { ...state, limit } : state, events: [] };
        }
        return { state, events: withUsage(line, eachBlock(line, assistantBlock)) };
      case 'user': {
        const events = eachBlock(line, toolResult);
        const background = state.background;
        return { state, events: background.size ? events.filter((event) => !(event.type === 'tool_end' && background.has(event.id))) : events };
      }
      case 'system':
        return system(state, line);
      case 'result':
        return { state: { background: state.background }, events: [result(line, state)] };
      case 'rate_limit_event':
        return { state: rateLimitEvent(state, line), events: [] };
      case 'stream_event':
        // Partial-message deltas (--include-partial-messages); the whole blocks follow anyway.
        return { state, events: [] };
      case 'command_lifecycle':
        return { state, events: inputState(line) };
      case 'control_request':
        return { state, events: controlRequest(line) };
      case 'control_response':
        return { state, events: controlResponse(line) };
      default:
        return null;
    }
  },
};

function system(state: ClaudeState, line: Json): DecodeStep<ClaudeState> {
  const subtype = line.subtype;
  if (subtype === 'task_started' || subtype === 'task_notification') {
    const step = backgroundTask(state.background, line);
    return { state: { ...state, background: step.state }, events: step.events };
  }
  if (subtype === 'init') return { state, events: sessionStarted(line) };
  if (subtype === 'api_retry') return { state, events: [{ type: 'error', message: apiRetry(line) }] };
  // status, permission_denied, hooks...: the tool_result that follows carries what matters.
  return { state, events: [] };
}

/** A subscription's limits as the API's headers told them: a refusal names when it resets. */
function rateLimitEvent(state: ClaudeState, line: Json): ClaudeState {
  const info = isObject(line.rate_limit_info) ? line.rate_limit_info : {};
  const resetsAt = num(info.resetsAt);
  return info.status === 'rejected' && resetsAt !== undefined ? { ...state, resetsAt: resetsAt * 1000 } : state;
}

function apiErrorText(line: Json): string {
  const message = isObject(line.message) ? line.message : {};
  const content = Array.isArray(message.content) ? message.content : [];
  return content.map((block) => (isObject(block) ? (str(block.text) ?? '') : '')).join('\n');
}

function backgroundTask(state: BackgroundTasks, line: Json): DecodeStep<BackgroundTasks> {
  const id = str(line.tool_use_id);
  if (!id) return { state, events: [] };
  if (line.subtype === 'task_started') return line.is_backgrounded === true ? { state: new Set([...state, id]), events: [] } : { state, events: [] };
  if (!state.has(id)) return { state, events: [] }; // a foreground Task: its tool result ended it
  const rest = new Set(state);
  rest.delete(id);
  return { state: rest, events: [{ type: 'tool_end', id, isError: line.status !== 'completed', preview: preview(str(line.summary) ?? '') }] };
}

/**
 * The events of a line's content blocks, in order. A plain loop into one array: this runs
 * for nearly every line a CLI prints, where intermediate arrays would cost more than the work.
 */
function eachBlock(line: Json, decode: (block: Json, parentId: string | undefined) => AgentEvent | undefined): AgentEvent[] {
  const message = line.message;
  if (!isObject(message) || !Array.isArray(message.content)) return [];
  const parentId = str(line.parent_tool_use_id);
  const events: AgentEvent[] = [];
  for (const block of message.content as unknown[]) {
    if (!isObject(block)) continue;
    const event = decode(block, parentId);
    if (event) events.push(event);
  }
  return events;
}

/** An assistant line's message usage (each of its content blocks' lines repeats it, growing): priced as it comes. */
function withUsage(line: Json, events: AgentEvent[]): AgentEvent[] {
  const message = line.message;
  const used = isObject(message) ? usage(message.usage) : undefined;
  if (!used || !isObject(message)) return events;
  // Built field by field, not through compact: one of these comes with nearly every assistant line.
  const event: UsageEvent = { type: 'usage', usage: used };
  const model = str(message.model);
  const messageId = str(message.id);
  if (model !== undefined) event.model = model;
  if (messageId !== undefined) event.messageId = messageId;
  events.push(event);
  return events;
}

function assistantBlock(block: Json, parentId: string | undefined): AgentEvent | undefined {
  if (block.type === 'text') {
    const text = str(block.text);
    if (!text) return undefined;
    return parentId ? { type: 'text', text, parentId } : { type: 'text', text };
  }
  if (block.type === 'tool_use') {
    const id = str(block.id);
    const name = str(block.name);
    if (!id || !name) return undefined;
    const input = block.input ?? {};
    return parentId ? { type: 'tool_start', id, name, input, parentId } : { type: 'tool_start', id, name, input };
  }
  return undefined; // thinking, redacted_thinking, ...
}

function toolResult(block: Json, parentId: string | undefined): AgentEvent | undefined {
  if (block.type !== 'tool_result') return undefined;
  const id = str(block.tool_use_id);
  if (!id) return undefined;
  const event = { type: 'tool_end' as const, id, isError: block.is_error === true, preview: preview(resultText(block.content)) };
  return parentId ? { ...event, parentId } : event;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObject)
    .map((part) => (part.type === 'text' ? (str(part.text) ?? '') : `[${str(part.type) ?? 'content'}]`))
    .join('\n');
}

/** Claude Code retrying its model API (no network, an overloaded API): its fields as a line, what the chat shows while it waits. */
function apiRetry(line: Json): string {
  const [attempt, most, status, delay] = [line.attempt, line.max_retries, line.error_status, line.retry_delay_ms].map(num);
  const of = attempt === undefined ? '' : ` ${attempt}${most === undefined ? '' : ` of ${most}`}`;
  const next = delay === undefined ? '' : `, next in ${(delay / 1000).toFixed(1)} s`;
  return `API retry${of}${next}: ${str(line.error) ?? 'error'}${status === undefined ? ', no HTTP answer' : ` (HTTP ${status})`}`;
}

/** Claude Code's words for a missing login, naming its own /login, which a chat does not have. */
const NOT_LOGGED_IN = /^Not logged in\b/;
const NO_CREDENTIALS =
  'claude has no credentials. Set ANTHROPIC_API_KEY where the bridge starts (export ANTHROPIC_API_KEY=…) and restart the bridge, or run claude once in a terminal, as the user the bridge runs as, and log in there.';

function result(line: Json, state: ClaudeState): AgentEvent {
  const isError = line.is_error === true || (str(line.subtype) ?? 'success') !== 'success';
  const errors = Array.isArray(line.errors) ? line.errors.filter((e) => typeof e === 'string').join('\n') : '';
  const said = str(line.result) ?? (errors || (isError ? `Claude Code ended with ${str(line.subtype) ?? 'an error'}` : ''));
  const text = isError && NOT_LOGGED_IN.test(said) ? NO_CREDENTIALS : said;
  return compact({
    type: 'result',
    text,
    isError,
    sessionId: str(line.session_id),
    usage: usage(line.usage),
    costUsd: num(line.total_cost_usd),
    turns: num(line.num_turns),
    durationMs: num(line.duration_ms),
    answered: Array.isArray(line.user_message_uuids) ? line.user_message_uuids.filter((id) => typeof id === 'string') : undefined,
    limit: isError ? resultLimit(line, text, state) : undefined,
  });
}

/** The limit an error result was refused for: its API error's kind, and when it resets (the rate-limit event's time, or the words'). */
function resultLimit(line: Json, text: string, state: ClaudeState): QuotaLimit | undefined {
  const limit = state.limit ?? limitOfApiError(num(line.api_error_status), str(line.api_error_type), text);
  if (!limit) return undefined;
  const resetsAt = state.resetsAt ?? limit.resetsAt ?? limitOfText(text)?.resetsAt;
  return resetsAt === undefined ? { kind: limit.kind } : { kind: limit.kind, resetsAt };
}

/** With `--input-format stream-json`: a message we sent (by its uuid) was queued, started or completed. */
function inputState(line: Json): AgentEvent[] {
  const id = str(line.command_uuid);
  const state = line.state;
  return id && (state === 'queued' || state === 'started' || state === 'completed' || state === 'cancelled') ? [{ type: 'input', id, state }] : [];
}

/** With `--permission-prompt-tool stdio`: the CLI asks before a tool runs (other requests, such as hook callbacks, are not ours). */
function controlRequest(line: Json): AgentEvent[] {
  const request = line.request;
  const requestId = str(line.request_id);
  if (!requestId || !isObject(request) || request.subtype !== 'can_use_tool') return [];
  const tool = str(request.tool_name);
  if (!tool) return [];
  const input = isObject(request.input) ? request.input : {};
  return [compact({ type: 'permission', requestId, tool, input, toolUseId: str(request.tool_use_id) })];
}

function controlResponse(line: Json): AgentEvent[] {
  const response = line.response;
  if (!isObject(response)) return [];
  const requestId = str(response.request_id);
  if (!requestId) return [];
  const body = isObject(response.response) ? response.response : {};
  const stillQueued = Array.isArray(body.still_queued) ? body.still_queued.filter((id): id is string => typeof id === 'string') : undefined;
  return [compact({ type: 'control', requestId, ok: response.subtype === 'success', error: str(response.error), stillQueued })];
}

/**
 * Claude Code's stdio control channel, on the same standard input as its messages: every
 * message is a line it queues itself (taken into the turn at work, or the next), and every
 * request a line; the session is the one its command line resumes.
 */
export const claudeWire: LiveWireFactory = (io) => ({
  take: () => false,
  send: (text, id) => io.write(claudeUserMessage(text, id)),
  interrupt: (requestId) => void io.write(controlRequestLine(requestId, { subtype: 'interrupt' })),
  setPlanning: (requestId, planning) => void io.write(controlRequestLine(requestId, { subtype: 'set_permission_mode', mode: planning ? 'plan' : 'default' })),
  decide: (requestId, decision) =>
    void io.write(JSON.stringify({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response: decision } })),
});

function controlRequestLine(requestId: string, request: Json): string {
  return JSON.stringify({ type: 'control_request', request_id: requestId, request });
}

/** One message for Claude Code's `--input-format stream-json`, named by `id` so its progress can be followed. */
export function claudeUserMessage(text: string, id: string): string {
  return JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] }, uuid: id });
}

/** A `system`/`init` line's session, with its model and directory: droid's says it as Claude Code's does. */
export function sessionStarted(line: Json): AgentEvent[] {
  const sessionId = str(line.session_id);
  return sessionId ? [compact({ type: 'started', sessionId, model: str(line.model), cwd: str(line.cwd) })] : [];
}

/** Anthropic-style usage, shared with droid. */
export function usage(raw: unknown): Usage | undefined {
  if (!isObject(raw)) return undefined;
  const inputTokens = num(raw.input_tokens);
  const outputTokens = num(raw.output_tokens);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  // Field by field, not through compact: an assistant line's usage is read on every one of them.
  const used: Usage = { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 };
  const cacheReadTokens = num(raw.cache_read_input_tokens);
  const cacheWriteTokens = num(raw.cache_creation_input_tokens);
  if (cacheReadTokens !== undefined) used.cacheReadTokens = cacheReadTokens;
  if (cacheWriteTokens !== undefined) used.cacheWriteTokens = cacheWriteTokens;
  return used;
}
