import type { AgentEvent } from './events.ts';
import { sessionStarted, usage } from './claude-stream-json.ts';
import { compact, isObject, jsonOf, num, preview, str, type Decoder, type Json } from './decoder.ts';
import { limitOfApiError } from './quota.ts';

/**
 * Factory droid `exec --output-format stream-json`: `system`/`init`, `message` (both roles),
 * `tool_call`, `tool_result`, `completion`, `error`.
 */
export const droidStreamJson: Decoder<null> = {
  protocol: 'droid-stream-json',
  toolNames: { Execute: 'Bash' },
  initial: () => null,
  // Its lines mean the same whatever came before: no state.
  step(state, line) {
    const events = isObject(line) ? decodeLine(line) : null;
    return events ? { state, events } : null;
  },
};

function decodeLine(line: Json): AgentEvent[] | null {
  switch (line.type) {
    case 'system':
      return line.subtype === 'init' ? sessionStarted(line) : [];
    case 'message': {
      const text = str(line.text);
      // The user's own prompt is echoed back; only the assistant's words are news.
      return line.role === 'assistant' && text ? [{ type: 'text', text }] : [];
    }
    case 'tool_call': {
      const id = str(line.id);
      const name = str(line.toolName) ?? str(line.toolId);
      return id && name ? [{ type: 'tool_start', id, name, input: line.parameters ?? {} }] : [];
    }
    case 'tool_result': {
      const id = str(line.id);
      return id ? [{ type: 'tool_end', id, isError: line.isError === true, preview: preview(line.value) }] : [];
    }
    case 'completion':
      return [
        compact({
          type: 'result',
          text: str(line.finalText) ?? '',
          isError: false,
          sessionId: str(line.session_id),
          usage: usage(line.usage),
          turns: num(line.numTurns),
          durationMs: num(line.durationMs),
        }),
      ];
    case 'error': {
      const message = str(line.message) ?? 'droid reported an error';
      return [compact({ type: 'error', message, limit: apiErrorLimit(message) })];
    }
    default:
      return null;
  }
}

/** droid passes the model API's refusal on as "<status> <its JSON body>": a limit, by the body's error type. */
function apiErrorLimit(message: string) {
  const said = /^(\d{3}) (\{.*\})$/s.exec(message);
  if (!said) return undefined;
  const body = jsonOf(said[2]!);
  if (body === undefined) return limitOfApiError(Number(said[1]), undefined, said[2]);
  const error = isObject(body) && isObject(body.error) ? body.error : {};
  return limitOfApiError(Number(said[1]), str(error.code) ?? str(error.type), str(error.message) ?? '');
}
