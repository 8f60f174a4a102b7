// Ready-made scripts and replies so a test states only what differs.
import type { Reply, Script, ToolCall, ToolResultView, ModelRequest } from './types.ts';

export const DEFAULT_TEXT = 'Hi from mock!';

export function replyText(text: string): Reply {
  return { text };
}

export function replyTool(name: string, input: Record<string, unknown>): Reply {
  return { toolCalls: [{ name, input }] };
}

/** Answers every request with the same fixed text. */
export function always(text: string): Script {
  return () => replyText(text);
}

export const defaultScript: Script = always(DEFAULT_TEXT);

/** Repeats the newest user prompt back, so a test can tell turns apart. */
export const echoScript: Script = (request) => replyText(`You said: ${request.lastUserText}`);

export interface ToolThenTextOptions {
  /** The tool call to make when a turn starts (no tool result yet). */
  call: ToolCall | ((request: ModelRequest) => ToolCall);
  /** The final text once the tool result is back; defaults to quoting it. */
  finalText?: (results: ToolResultView[], request: ModelRequest) => string;
  /** Text sent alongside the tool call, before it. */
  preamble?: string;
}

/**
 * A tool-use turn: the first request of a turn gets the tool call, the request
 * carrying its result gets text quoting that result. Stateless, so it also works
 * across resumed turns and concurrent runs.
 */
export function toolThenText(options: ToolThenTextOptions): Script {
  const finalText = options.finalText ?? ((results) => `The tool said: ${results.map((r) => r.content).join('\n')}`);
  return (request) => {
    if (request.toolResults.length > 0) return replyText(finalText(request.toolResults, request));
    const call = typeof options.call === 'function' ? options.call(request) : options.call;
    return options.preamble === undefined
      ? { toolCalls: [call] }
      : {
          blocks: [
            { type: 'text', text: options.preamble },
            { type: 'tool', ...call },
          ],
        };
  };
}

/** Each CLI's own shell tool, with the arguments its schema requires. */
export function shellToolCall(cli: 'claude' | 'codex' | 'droid', command: string): ToolCall {
  switch (cli) {
    case 'claude':
      return { name: 'Bash', input: { command, description: 'Run command' } };
    case 'codex':
      return { name: 'exec_command', input: { cmd: command } };
    case 'droid':
      return {
        name: 'Execute',
        input: { command, summary: 'Run command', riskLevel: 'low', riskLevelReason: 'Test command.' },
      };
  }
}

/**
 * The agent creates the file its message names ("create notes.txt": a Bash `touch`, a write
 * Claude Code asks permission for), then quotes what the tool said.
 */
export const createNamedFile: Script = (request) => {
  if (request.toolResults.length) return replyText(`tool said: ${request.toolResults.at(-1)!.content}`);
  const file = /create (\S+)/.exec(request.lastUserText)?.[1];
  if (file) return { toolCalls: [{ name: 'Bash', input: { command: `touch ${file}`, description: 'Create the file' } }] };
  return replyText('nothing to do');
};
