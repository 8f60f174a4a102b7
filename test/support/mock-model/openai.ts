// OpenAI Responses API (streaming), the shape codex 0.169 reads: it acts on
// response.output_item.done items and needs response.completed to end a turn.
import type { ServerResponse } from 'node:http';
import { isInjectedContext } from './context-text.ts';
import { asArray, asRecord, asString, countTokens, lastIndexWhere, records, replyBlocks } from './reply.ts';
import { sendEvent, sendJson, startSse } from './sse.ts';
import type { ModelRequest, Reply, ReplyError, ToolResultView } from './types.ts';

type Item = Record<string, unknown>;

/** Texts of a message item; content is a string or a list of input_text/output_text parts. */
function messageTexts(item: Item): string[] {
  if (typeof item.content === 'string') return [item.content];
  return asArray(item.content).map((part) => asString(asRecord(part)?.text));
}

function isMessage(item: Item, role: string): boolean {
  return item.type === 'message' && item.role === role;
}

/** function_call_output.output is a string or a list of content parts. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  return asArray(output)
    .map((part) => asString(asRecord(part)?.text))
    .join('\n');
}

/** Separator codex puts between an MCP namespace and its tool, as in claude's `mcp__server__tool`. */
const NAMESPACE_SEPARATOR = '__';
const MCP_PREFIX = 'mcp__';

/**
 * Flat tool names. Codex sends MCP tools as `{type: "namespace", name: "mcp__x", tools: [...]}`;
 * they are listed as `mcp__x__tool`. Hosted tools (web_search, ...) have only a type.
 */
function toolNames(tools: unknown): string[] {
  return records(tools).flatMap((tool) => {
    const name = asString(tool.name) || asString(tool.type);
    if (tool.type !== 'namespace') return [name];
    return records(tool.tools).map((inner) => `${name}${NAMESPACE_SEPARATOR}${asString(inner.name)}`);
  });
}

/**
 * Splits `mcp__x__ping` into the namespace/name pair codex expects back. MCP names split even when
 * not offered: with gpt-5.5 codex defers MCP tools behind tool_search yet still accepts a direct call.
 */
function callTarget(name: string, offered: readonly string[]): { namespace?: string; name: string } {
  // MCP server names end at the second separator (`mcp__<server>__<tool>`); others at the last one.
  const cut = name.startsWith(MCP_PREFIX)
    ? name.indexOf(NAMESPACE_SEPARATOR, MCP_PREFIX.length)
    : offered.includes(name)
      ? name.lastIndexOf(NAMESPACE_SEPARATOR)
      : -1;
  if (cut <= 0) return { name };
  return { namespace: name.slice(0, cut), name: name.slice(cut + NAMESPACE_SEPARATOR.length) };
}

export function normalizeOpenAi(body: Record<string, unknown>, index: number): ModelRequest {
  const input = asArray(body.input);
  const items = records(input);
  const system = [asString(body.instructions), ...items.filter((i) => isMessage(i, 'developer')).flatMap(messageTexts)]
    .filter((text) => text !== '')
    .join('\n');
  const userTexts = (item: Item) => messageTexts(item).filter((text) => text !== '' && !isInjectedContext(text));
  const lastUser = [...items].reverse().find((item) => isMessage(item, 'user') && userTexts(item).length > 0);
  // Tool outputs of the current turn are the ones after the newest user message.
  const turnStart = lastIndexWhere(items, (item) => isMessage(item, 'user')) + 1;
  const toolResults: ToolResultView[] = items
    .slice(turnStart)
    .filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
    .map((item) => ({ id: asString(item.call_id), content: outputText(item.output), isError: false }));
  return {
    api: 'openai',
    index,
    model: asString(body.model),
    system,
    messages: input,
    lastUserText: lastUser === undefined ? '' : userTexts(lastUser).join('\n'),
    toolResults,
    toolNames: toolNames(body.tools),
    rawBody: body,
  };
}

export interface OpenAiIds {
  response: () => string;
  item: () => string;
  call: () => string;
}

/** Builds the finished output items; streaming then replays them as added/delta/done events. */
function outputItems(reply: Reply, offeredTools: readonly string[], ids: OpenAiIds): Item[] {
  return replyBlocks(reply).map((block) =>
    block.type === 'text'
      ? {
          type: 'message',
          id: ids.item(),
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: block.text, annotations: [] }],
        }
      : {
          type: 'function_call',
          id: ids.item(),
          status: 'completed',
          call_id: ids.call(),
          ...callTarget(block.name, offeredTools),
          arguments: JSON.stringify(block.input),
        },
  );
}

export function streamOpenAi(res: ServerResponse, request: ModelRequest, reply: Reply, ids: OpenAiIds): void {
  const output = outputItems(reply, request.toolNames, ids);
  const response = {
    id: ids.response(),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: request.model,
  };
  let sequence = 0;
  const send = (event: { type: string } & Record<string, unknown>) => sendEvent(res, { ...event, sequence_number: sequence++ });

  startSse(res);
  send({ type: 'response.created', response: { ...response, status: 'in_progress', output: [] } });
  output.forEach((item, outputIndex) => {
    const at = { output_index: outputIndex, item_id: item.id };
    if (item.type === 'message') {
      const text = messageTexts(item).join('');
      const part = (partText: string) => ({ type: 'output_text', text: partText, annotations: [] });
      const started = { ...item, status: 'in_progress', content: [] };
      send({ type: 'response.output_item.added', output_index: outputIndex, item: started });
      send({ type: 'response.content_part.added', ...at, content_index: 0, part: part('') });
      send({ type: 'response.output_text.delta', ...at, content_index: 0, delta: text });
      send({ type: 'response.output_text.done', ...at, content_index: 0, text });
      send({ type: 'response.content_part.done', ...at, content_index: 0, part: part(text) });
    } else {
      const started = { ...item, status: 'in_progress', arguments: '' };
      send({ type: 'response.output_item.added', output_index: outputIndex, item: started });
      send({ type: 'response.function_call_arguments.delta', ...at, delta: item.arguments });
      send({ type: 'response.function_call_arguments.done', ...at, arguments: item.arguments });
    }
    send({ type: 'response.output_item.done', output_index: outputIndex, item });
  });
  const outputTokens = countTokens(JSON.stringify(output));
  send({
    type: 'response.completed',
    response: {
      ...response,
      status: 'completed',
      output,
      usage: {
        input_tokens: 12,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 12 + outputTokens,
      },
    },
  });
  res.end();
}

export function sendOpenAiError(res: ServerResponse, error: ReplyError): void {
  const message = error.message ?? `mock error ${error.status}`;
  sendJson(res, error.status, { error: { message, type: error.type ?? 'mock_error', code: error.code ?? null, param: null, ...error.fields } }, error.headers);
}
