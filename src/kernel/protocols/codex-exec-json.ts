import type { AgentEvent, ToolEndEvent, ToolStartEvent } from './events.ts';
import { compact, isObject, num, preview, str, type Decoder, type Json } from './decoder.ts';
import { limitOfText } from './quota.ts';

/** What codex says before `turn.completed` that the result needs. */
export interface CodexState {
  lastText: string;
  /** Items already announced by `item.started`, so `item.completed` does not start them twice. */
  started: readonly string[];
}

const FRESH: CodexState = { lastText: '', started: [] };

/** Codex's tools in Claude Code's names, the model's own (`exec_command`) included. */
export const CODEX_TOOL_NAMES = { shell: 'Bash', exec_command: 'Bash', edit: 'Edit' };

/**
 * Codex `exec --json`: `thread.started`, `turn.started`, `item.started`/`item.completed`,
 * `turn.completed` (usage only: the answer is the last `agent_message`), `turn.failed`, `error`.
 */
export const codexExecJson: Decoder<CodexState> = {
  protocol: 'codex-exec-json',
  metering: { reportsUsage: true, inputIncludesCache: true },
  toolNames: CODEX_TOOL_NAMES,
  initial: () => FRESH,
  step(state, line) {
    if (!isObject(line)) return null;
    switch (line.type) {
      case 'thread.started': {
        const sessionId = str(line.thread_id);
        return { state, events: sessionId ? [{ type: 'started', sessionId }] : [] };
      }
      case 'turn.started':
        return { state: FRESH, events: [] };
      case 'item.started':
        return itemStarted(state, line.item);
      case 'item.updated':
        return { state, events: [] };
      case 'item.completed':
        return itemCompleted(state, line.item);
      case 'turn.completed':
        return { state: FRESH, events: [compact({ type: 'result', text: state.lastText, isError: false, usage: usage(line.usage) })] };
      case 'turn.failed': {
        const text = (isObject(line.error) ? str(line.error.message) : undefined) ?? 'codex turn failed';
        return { state: FRESH, events: [compact({ type: 'result', text, isError: true, limit: limitOfText(text) })] };
      }
      case 'error': {
        const message = str(line.message) ?? 'codex reported an error';
        return { state, events: [compact({ type: 'error', message, limit: limitOfText(message) })] };
      }
      default:
        return null;
    }
  },
};

function itemStarted(state: CodexState, item: unknown) {
  if (!isObject(item)) return null;
  const start = codexToolStart(item);
  if (!start) return { state, events: [] };
  return { state: { ...state, started: [...state.started, start.id] }, events: [start] };
}

function itemCompleted(state: CodexState, item: unknown) {
  if (!isObject(item)) return null;
  const id = str(item.id) ?? '';
  switch (item.type) {
    case 'agent_message': {
      const text = str(item.text) ?? '';
      return { state: { ...state, lastText: text }, events: text ? [{ type: 'text' as const, text }] : [] };
    }
    case 'reasoning':
      return { state, events: [] };
    case 'error':
      // Codex reports recoverable warnings (e.g. unknown model metadata) as error items; the turn goes on.
      return { state, events: [{ type: 'log' as const, line: `codex: ${str(item.message) ?? 'error item'}` }] };
    default: {
      const start = codexToolStart(item);
      if (!start) return { state, events: [] };
      const events: AgentEvent[] = state.started.includes(id) ? [] : [start];
      events.push(codexToolEnd(item, id));
      return { state: { ...state, started: state.started.filter((s) => s !== id) }, events };
    }
  }
}

/**
 * The item kinds that are the agent acting (shell, MCP, edits, search) become tool calls: exec's
 * kinds, and the app server's (codexAppServer), which names the same kinds in camelCase.
 */
export function codexToolStart(item: Json): ToolStartEvent | null {
  const id = str(item.id);
  if (!id) return null;
  switch (item.type) {
    case 'command_execution':
    case 'commandExecution':
      return { type: 'tool_start', id, name: 'shell', input: { command: str(item.command) ?? '' } };
    case 'mcp_tool_call':
    case 'mcpToolCall':
      return { type: 'tool_start', id, name: `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`, input: item.arguments ?? {} };
    case 'dynamicToolCall':
      return { type: 'tool_start', id, name: str(item.tool) ?? 'tool', input: item.arguments ?? {} };
    case 'file_change':
    case 'fileChange':
      return { type: 'tool_start', id, name: 'edit', input: { changes: item.changes ?? [] } };
    case 'web_search':
    case 'webSearch':
      return { type: 'tool_start', id, name: 'web_search', input: { query: str(item.query) ?? '' } };
    case 'todo_list':
      return { type: 'tool_start', id, name: 'todo', input: { items: item.items ?? [] } };
    default:
      return null;
  }
}

/** A tool item's end, in either dialect's names: failed where codex says so or its command's exit code does, and what it gave back. */
export function codexToolEnd(item: Json, id: string): ToolEndEvent {
  const code = num(item.exit_code ?? item.exitCode);
  const isError = item.status === 'failed' || item.status === 'declined' || (code !== undefined && code !== 0);
  const command = item.type === 'command_execution' || item.type === 'commandExecution';
  const mcp = item.type === 'mcp_tool_call' || item.type === 'mcpToolCall';
  const output = command ? (item.aggregated_output ?? item.aggregatedOutput) : mcp ? (isObject(item.error) ? item.error.message : item.result) : '';
  return { type: 'tool_end', id, isError, preview: preview(output) };
}

function usage(raw: unknown) {
  if (!isObject(raw)) return undefined;
  return compact({
    inputTokens: num(raw.input_tokens) ?? 0,
    outputTokens: num(raw.output_tokens) ?? 0,
    cacheReadTokens: num(raw.cached_input_tokens),
    cacheWriteTokens: num(raw.cache_write_input_tokens),
  });
}
