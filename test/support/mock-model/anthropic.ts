// Anthropic Messages API (streaming): request normalization and SSE reply.
// Used by claude (`/v1/messages?beta=true`) and by droid's BYOK anthropic provider.
import type { ServerResponse } from 'node:http';
import { isInjectedContext } from './context-text.ts';
import { asArray, asRecord, asString, countTokens, records, replyBlocks } from './reply.ts';
import { sendEvent, sendJson, startSse } from './sse.ts';
import type { ModelRequest, Reply, ReplyError, ToolResultView } from './types.ts';

type Block = Record<string, unknown>;

function blocksOf(message: unknown): Block[] {
  const content = asRecord(message)?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return records(content);
}

function roleOf(message: unknown): string {
  return asString(asRecord(message)?.role);
}

/** `system` may be a string or a list of text blocks. */
function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  return asArray(system)
    .map((block) => asString(asRecord(block)?.text))
    .join('\n');
}

/** tool_result content may be a string or a list of text/image blocks. */
function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((block) => asString(asRecord(block)?.text))
    .join('\n');
}

function userTexts(message: unknown): string[] {
  return blocksOf(message)
    .filter((block) => block.type === 'text')
    .map((block) => asString(block.text))
    .filter((text) => !isInjectedContext(text));
}

export function normalizeAnthropic(body: Record<string, unknown>, index: number): ModelRequest {
  const messages = asArray(body.messages);
  // 2.1.330 may end the list with role "system" messages; the user turn is the newest non-system one.
  const conversational = messages.filter((m) => roleOf(m) !== 'system');
  const newest = conversational.at(-1);
  const toolResults: ToolResultView[] =
    newest !== undefined && roleOf(newest) === 'user'
      ? blocksOf(newest)
          .filter((block) => block.type === 'tool_result')
          .map((block) => ({
            id: asString(block.tool_use_id),
            content: toolResultText(block.content),
            isError: block.is_error === true,
          }))
      : [];
  const lastUser = [...conversational].reverse().find((m) => roleOf(m) === 'user' && userTexts(m).length > 0);
  return {
    api: 'anthropic',
    index,
    model: asString(body.model),
    system: systemText(body.system),
    messages,
    lastUserText: lastUser === undefined ? '' : userTexts(lastUser).join('\n'),
    toolResults,
    toolNames: asArray(body.tools).map((tool) => asString(asRecord(tool)?.name)),
    rawBody: body,
  };
}

export interface AnthropicIds {
  message: () => string;
  toolUse: () => string;
}

export function streamAnthropic(res: ServerResponse, model: string, reply: Reply, ids: AnthropicIds): void {
  const blocks = replyBlocks(reply);
  const outputTokens = countTokens(JSON.stringify(blocks));
  const usage = { input_tokens: 12, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  startSse(res);
  sendEvent(res, {
    type: 'message_start',
    message: {
      id: ids.message(),
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      sendEvent(res, { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      sendEvent(res, { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      sendEvent(res, {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: ids.toolUse(), name: block.name, input: {} },
      });
      sendEvent(res, {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    sendEvent(res, { type: 'content_block_stop', index });
  });
  const usesTool = blocks.some((block) => block.type === 'tool');
  sendEvent(res, {
    type: 'message_delta',
    delta: { stop_reason: usesTool ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: outputTokens },
  });
  sendEvent(res, { type: 'message_stop' });
  res.end();
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

export function sendAnthropicError(res: ServerResponse, error: ReplyError): void {
  const message = error.message ?? `mock error ${error.status}`;
  const type = error.type ?? ERROR_TYPES[error.status] ?? 'api_error';
  sendJson(res, error.status, { type: 'error', error: { type, message } }, error.headers);
}
