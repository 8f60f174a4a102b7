import type { AgentEvent, Usage } from './events.ts';
import { limitOfText } from './quota.ts';
import { CODEX_TOOL_NAMES, codexToolEnd, codexToolStart } from './codex-exec-json.ts';
import { compact, isObject, num, str, type Decoder, type Json } from './decoder.ts';

/** What the decoder remembers within a turn: its answer so far, the messages it took, what it used. */
export interface AppServerState {
  lastText: string;
  /** The bridge's ids of the messages the turn took (its prompt, and the steers). */
  taken: readonly string[];
  usage: Usage | undefined;
  inTurn: boolean;
}

const IDLE: AppServerState = { lastText: '', taken: [], usage: undefined, inTurn: false };

/** The server requests that ask whether the agent may act: the bridge answers them by the chat's mode. */
export const APPROVAL_REQUESTS: Readonly<Record<string, string>> = {
  'item/commandExecution/requestApproval': 'shell',
  'item/fileChange/requestApproval': 'edit',
};

/**
 * Codex `app-server`: JSON-RPC 2.0 on standard input and output, one message a line.
 * Notifications carry the work (`turn/started`, `item/started`/`item/completed`,
 * `turn/completed` with its status, `thread/tokenUsage/updated`); requests from the server ask
 * for approvals. Responses to the bridge's own requests are its wire's (codexAppServerWire),
 * so the decoder sees none of them.
 */
export const codexAppServer: Decoder<AppServerState> = {
  protocol: 'codex-app-server',
  metering: { reportsUsage: true, inputIncludesCache: true },
  toolNames: CODEX_TOOL_NAMES,
  initial: () => IDLE,
  step(state, line) {
    if (!isObject(line) || typeof line.method !== 'string') return isObject(line) && 'id' in line ? { state, events: [] } : null;
    const params = isObject(line.params) ? line.params : {};
    if ('id' in line) return approvalRequest(state, line.method, line.id, params);
    switch (line.method) {
      case 'thread/started': {
        const sessionId = isObject(params.thread) ? str(params.thread.id) : undefined;
        return { state, events: sessionId ? [{ type: 'started', sessionId }] : [] };
      }
      case 'turn/started':
        return { state: { ...IDLE, inTurn: true }, events: [] };
      case 'item/started':
        return itemStarted(state, params.item);
      case 'item/completed':
        return itemCompleted(state, params.item);
      case 'thread/tokenUsage/updated': {
        if (!state.inTurn) return { state, events: [] };
        const call = added(undefined, params.tokenUsage);
        return { state: { ...state, usage: added(state.usage, params.tokenUsage) }, events: call ? [{ type: 'usage', usage: call }] : [] };
      }
      case 'turn/completed':
        return { state: IDLE, events: [turnResult(state, params.turn)] };
      case 'error': {
        const error = isObject(params.error) ? str(params.error.message) : undefined;
        // A retried stream error is codex's own business; the turn goes on.
        const message = `codex: ${error ?? 'error'}`;
        const limit = error ? limitOfText(error) : undefined;
        return { state, events: [params.willRetry === true ? { type: 'log', line: message } : { type: 'error', message, limit }] };
      }
      default:
        // Deltas, status changes, warnings: the items and the turn's end carry what matters.
        return { state, events: [] };
    }
  },
};

function approvalRequest(state: AppServerState, method: string, id: unknown, params: Json) {
  const tool = APPROVAL_REQUESTS[method];
  if (!tool) return { state, events: [] };
  const input = compact({ command: str(params.command), cwd: str(params.cwd), reason: str(params.reason) });
  return { state, events: [compact({ type: 'permission' as const, requestId: JSON.stringify(id), tool, input, toolUseId: str(params.itemId) })] };
}

function itemStarted(state: AppServerState, item: unknown) {
  if (!isObject(item)) return { state, events: [] };
  if (item.type === 'userMessage') {
    const id = str(item.clientId);
    return id
      ? { state: { ...state, taken: [...state.taken, id] }, events: [{ type: 'input' as const, id, state: 'started' as const }] }
      : { state, events: [] };
  }
  const start = codexToolStart(item);
  return { state, events: start ? [start] : [] };
}

function itemCompleted(state: AppServerState, item: unknown) {
  if (!isObject(item)) return { state, events: [] };
  if (item.type === 'agentMessage') {
    const text = str(item.text) ?? '';
    return { state: { ...state, lastText: text }, events: text ? [{ type: 'text' as const, text }] : [] };
  }
  const id = str(item.id);
  if (!id || !codexToolStart(item)) return { state, events: [] };
  return { state, events: [codexToolEnd(item, id)] };
}

/** The turn's end: its last agent message, or why it did not finish. */
function turnResult(state: AppServerState, turn: unknown): AgentEvent {
  const status = isObject(turn) ? turn.status : undefined;
  const error = isObject(turn) && isObject(turn.error) ? str(turn.error.message) : undefined;
  const common = { answered: [...state.taken], usage: state.usage };
  if (status === 'completed') return { type: 'result', text: state.lastText, isError: false, ...common };
  const text =
    status === 'interrupted' ? 'codex stopped the turn' : (error ?? `codex ended the turn ${typeof status === 'string' ? status : 'without finishing'}`);
  return { type: 'result', text, isError: true, ...common, limit: error ? limitOfText(error) : undefined };
}

/** Codex reports each model call's usage (`last`); a turn's is their sum. */
function added(sum: Usage | undefined, raw: unknown): Usage | undefined {
  const last = isObject(raw) && isObject(raw.last) ? raw.last : undefined;
  if (!last) return sum;
  const next = (a: number | undefined, b: unknown) => (a ?? 0) + (num(b) ?? 0);
  return compact({
    inputTokens: next(sum?.inputTokens, last.inputTokens),
    outputTokens: next(sum?.outputTokens, last.outputTokens),
    cacheReadTokens: next(sum?.cacheReadTokens, last.cachedInputTokens),
    cacheWriteTokens: next(sum?.cacheWriteTokens, last.cacheWriteInputTokens),
  });
}
