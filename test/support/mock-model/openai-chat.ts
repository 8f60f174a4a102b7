// OpenAI chat completions (`/v1/chat/completions`), the API Qwen Code, OpenCode and Copilot's
// own-key mode speak: messages in, `chat.completion.chunk` frames out (or one `chat.completion`
// when not streaming), a tool call as a function call of the assistant's message.
import type { ServerResponse } from 'node:http';
import { isInjectedContext } from './context-text.ts';
import { asArray, asRecord, asString, countTokens, lastIndexWhere, records, replyBlocks } from './reply.ts';
import { sendJson, startSse } from './sse.ts';
import type { ModelRequest, Reply, ToolResultView } from './types.ts';

type Message = Record<string, unknown>;

/** A message's texts: its content is a string or a list of `{type: "text", text}` parts. */
function texts(message: Message): string[] {
  if (typeof message.content === 'string') return [message.content];
  return records(message.content).map((part) => asString(part.text));
}

const userTexts = (message: Message) => texts(message).filter((text) => text !== '' && !isInjectedContext(text));

export function normalizeOpenAiChat(body: Record<string, unknown>, index: number): ModelRequest {
  const messages = records(body.messages);
  const lastUser = [...messages].reverse().find((message) => message.role === 'user' && userTexts(message).length > 0);
  // The tool results of the current turn: the `tool` messages after the newest user message.
  const turnStart = lastIndexWhere(messages, (message) => message.role === 'user') + 1;
  const toolResults: ToolResultView[] = messages
    .slice(turnStart)
    .filter((message) => message.role === 'tool')
    .map((message) => ({ id: asString(message.tool_call_id), content: texts(message).join('\n'), isError: false }));
  return {
    api: 'openai-chat',
    index,
    model: asString(body.model),
    system: messages
      .filter((message) => message.role === 'system' || message.role === 'developer')
      .flatMap(texts)
      .join('\n'),
    messages: asArray(body.messages),
    lastUserText: lastUser === undefined ? '' : userTexts(lastUser).join('\n'),
    toolResults,
    toolNames: records(body.tools).map((tool) => asString(asRecord(tool.function)?.name)),
    rawBody: body,
  };
}

/** The reply as a chat completion: its text, then its tool calls, and why it finished. */
export function answerOpenAiChat(res: ServerResponse, request: ModelRequest, reply: Reply, ids: { completion: () => string; call: () => string }): void {
  const blocks = replyBlocks(reply);
  const text = blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  const toolCalls = blocks.flatMap((block) =>
    block.type === 'tool' ? [{ id: ids.call(), type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input) } }] : [],
  );
  const finishReason = toolCalls.length ? 'tool_calls' : 'stop';
  const completionTokens = countTokens(text + JSON.stringify(toolCalls));
  const promptTokens = countTokens(JSON.stringify(request.messages));
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  const head = { id: ids.completion(), created: Math.floor(Date.now() / 1000), model: request.model };
  if (request.rawBody.stream !== true) {
    const message = { role: 'assistant', content: text || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
    return sendJson(res, 200, { ...head, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finishReason }], usage });
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
  startSse(res);
  chunk({ role: 'assistant', content: '' }, null);
  if (text) chunk({ content: text }, null);
  toolCalls.forEach((call, i) => chunk({ tool_calls: [{ index: i, ...call }] }, null));
  chunk({}, finishReason, { usage });
  res.end('data: [DONE]\n\n');
}
