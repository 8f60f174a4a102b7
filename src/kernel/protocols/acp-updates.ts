import { compact, isObject, num, preview, str, type DecodeStep, type Decoder, type Json } from './decoder.ts';
import type { AgentEvent } from './events.ts';

/** What a session's updates leave to remember within a turn: the message being written, the tools seen, the cost so far. */
export interface AcpTurnState {
  /** The agent's message being streamed in chunks: what of it is not shown yet. */
  message: string;
  /** What of that message is shown already (its paragraphs, as they came). */
  shown: string;
  /** The turn's last whole message: its answer. */
  answer: string;
  /** Tool calls announced, by id: one asked about before it was announced is started by its request. */
  tools: ReadonlySet<string>;
  /** The session's cost so far in US dollars, as the agent reports it (`usage_update.cost`). */
  costUsd: number | undefined;
}

export const ACP_IDLE: AcpTurnState = { message: '', shown: '', answer: '', tools: new Set(), costUsd: undefined };

/** A streamed message is shown a paragraph at a time, or at a word past this many characters of one. */
const SHOWN_AT_CHARS = 600;

/** ACP's tool kinds in Claude Code's tool names, which approval rules and progress lines are written in. */
export const ACP_TOOL_NAMES: Readonly<Record<string, string>> = {
  execute: 'Bash',
  edit: 'Edit',
  read: 'Read',
  search: 'Grep',
  fetch: 'WebFetch',
};

/** The kinds that only look: what `safe` lets an agent do without asking anyone. */
export const ACP_READING_KINDS: ReadonlySet<string> = new Set(['read', 'search', 'think', 'fetch']);

export type AcpStep = DecodeStep<AcpTurnState>;

/**
 * One `session/update` of an ACP agent, as the bridge's events: message chunks are joined and
 * shown as they come, a paragraph at a time (so a long answer is progress while it streams,
 * and the whole message is the answer), `tool_call` and
 * `tool_call_update` are tools by their kind with their title and status, `plan` is a TodoWrite
 * (the progress view's plan), `usage_update` keeps the session's cost. A pure reducer, as a
 * dialect's decoder is.
 */
export function acpUpdate(state: AcpTurnState, update: unknown): AcpStep {
  if (!isObject(update)) return { state, events: [] };
  switch (update.sessionUpdate) {
    case 'agent_message_chunk': {
      const content = isObject(update.content) ? update.content : {};
      const text = content.type === 'text' ? (str(content.text) ?? '') : '';
      return showWritten({ ...state, message: state.message + text });
    }
    case 'tool_call':
    case 'tool_call_update': {
      const ended = endMessage(state);
      const step = toolUpdate(ended.state, update);
      return { state: step.state, events: [...ended.events, ...step.events] };
    }
    case 'plan': {
      const ended = endMessage(state);
      const entries = Array.isArray(update.entries) ? update.entries.filter(isObject) : [];
      const todos = entries.map((entry) => ({ content: str(entry.content) ?? '', status: str(entry.status) ?? 'pending' }));
      const id = `plan-${Date.now()}`;
      return {
        state: ended.state,
        events: [...ended.events, { type: 'tool_start', id, name: 'TodoWrite', input: { todos } }, { type: 'tool_end', id, isError: false, preview: '' }],
      };
    }
    case 'usage_update': {
      const cost = isObject(update.cost) && update.cost.currency === 'USD' ? num(update.cost.amount) : undefined;
      return { state: cost === undefined ? state : { ...state, costUsd: cost }, events: [] };
    }
    default:
      // Thoughts, replayed user messages, commands, modes: nothing the progress view shows.
      return { state, events: [] };
  }
}

/** The tool call a permission request is about, started if no update announced it (Gemini asks first). */
export function acpPermissionTool(state: AcpTurnState, toolCall: unknown): AcpStep {
  if (!isObject(toolCall)) return { state, events: [] };
  const id = str(toolCall.toolCallId);
  if (!id || state.tools.has(id)) return { state, events: [] };
  const ended = endMessage(state);
  return { state: { ...ended.state, tools: new Set([...state.tools, id]) }, events: [...ended.events, toolStart(id, toolCall)] };
}

/** The turn's end: its message shown, its answer and its cost, and a state for the next turn. */
export function acpTurnEnd(state: AcpTurnState): AcpStep & { answer: string } {
  const ended = endMessage(state);
  return { ...ended, answer: ended.state.answer, state: { ...ACP_IDLE, costUsd: state.costUsd } };
}

/** The tool's name for rules and progress: its kind in Claude Code's names, else the kind itself. */
export function acpToolName(kind: unknown): string {
  const name = str(kind) ?? 'other';
  return ACP_TOOL_NAMES[name] ?? name;
}

/**
 * What a tool call is given: its raw input where the agent says, else its title, which for a
 * command is the command (Gemini CLI sends no raw input), so tool-policy rules match it.
 */
export function acpToolInput(call: Json): Record<string, unknown> {
  const title = str(call.title);
  if (isObject(call.rawInput) && Object.keys(call.rawInput).length) return { ...call.rawInput };
  if (!title) return {};
  return call.kind === 'execute' ? { command: title } : { description: title };
}

function endMessage(state: AcpTurnState): AcpStep {
  if (!state.message && !state.shown) return { state, events: [] };
  const events: AgentEvent[] = state.message.trim() ? [{ type: 'text', text: state.message }] : [];
  return { state: { ...state, message: '', shown: '', answer: state.shown + state.message }, events };
}

/** The streamed message's written paragraphs (or a long run of one, to its last word) shown now. */
function showWritten(state: AcpTurnState): AcpStep {
  const paragraph = state.message.lastIndexOf('\n\n');
  const word = state.message.length > SHOWN_AT_CHARS ? state.message.lastIndexOf(' ') : -1;
  const cut = paragraph > 0 ? paragraph + 2 : word > 0 ? word + 1 : 0;
  if (cut === 0) return { state, events: [] };
  const written = state.message.slice(0, cut);
  const next = { ...state, message: state.message.slice(cut), shown: state.shown + written };
  return { state: next, events: written.trim() ? [{ type: 'text', text: written.trimEnd() }] : [] };
}

function toolUpdate(state: AcpTurnState, update: Json): AcpStep {
  const id = str(update.toolCallId);
  if (!id) return { state, events: [] };
  const events: AgentEvent[] = [];
  let tools = state.tools;
  if (!tools.has(id)) {
    tools = new Set([...tools, id]);
    events.push(toolStart(id, update));
  }
  if (update.status === 'completed' || update.status === 'failed') {
    events.push(compact({ type: 'tool_end' as const, id, isError: update.status === 'failed', preview: preview(toolOutput(update)) }));
  }
  return { state: tools === state.tools ? state : { ...state, tools }, events };
}

function toolStart(id: string, call: Json): AgentEvent {
  return { type: 'tool_start', id, name: acpToolName(call.kind), input: acpToolInput(call) };
}

function toolOutput(update: Json): unknown {
  if (update.rawOutput !== undefined) return update.rawOutput;
  const content = Array.isArray(update.content) ? update.content.filter(isObject) : [];
  return content.map((item) => (isObject(item.content) ? (str(item.content.text) ?? '') : '')).join('\n');
}

/**
 * The ACP dialect's decoder: its wire (acpWire) reads every JSON-RPC message through the SDK,
 * so what reaches this is what is not one (a stray line of JSON): kept as a log line.
 */
export const acpDecoder: Decoder<null> = {
  protocol: 'acp',
  // Its cost where the agent reports one (`usage_update.cost`); tokens are not in the stable protocol.
  metering: { reportsCost: true },
  toolNames: ACP_TOOL_NAMES,
  initial: () => null,
  step: () => null,
};
