// The Gemini API's `models/<model>:streamGenerateContent?alt=sse` (Gemini CLI): contents of
// parts in, server-sent `data:` frames of candidates out, a function call as a part.
import type { ServerResponse } from 'node:http';
import { asRecord, asString, countTokens, records, replyBlocks } from './reply.ts';
import { sendJson, startSse } from './sse.ts';
import type { ModelRequest, Reply, ReplyError, ToolResultView } from './types.ts';

/** The path of a Gemini model call: its model, and whether it streams. */
export const GEMINI_PATH = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

type Part = Record<string, unknown>;

const partsOf = (content: Record<string, unknown>): Part[] => records(content.parts);

export function normalizeGemini(body: Record<string, unknown>, index: number, model: string): ModelRequest {
  const contents = records(body.contents);
  const texts = (content: Record<string, unknown>) => partsOf(content).flatMap((part) => (typeof part.text === 'string' && part.text ? [part.text] : []));
  const system = asRecord(body.systemInstruction);
  const lastUser = [...contents].reverse().find((content) => content.role === 'user' && texts(content).length > 0);
  // The function responses of the current turn: those after the newest user text.
  const turnStart = lastUser ? contents.lastIndexOf(lastUser) + 1 : 0;
  const toolResults: ToolResultView[] = contents
    .slice(turnStart)
    .flatMap(partsOf)
    .flatMap((part) => {
      const response = asRecord(part.functionResponse);
      if (!response) return [];
      return [{ id: asString(response.id) || asString(response.name), content: JSON.stringify(response.response ?? {}), isError: false }];
    });
  return {
    api: 'gemini',
    index,
    model,
    system: system ? texts(system).join('\n') : '',
    messages: contents,
    lastUserText: lastUser ? texts(lastUser).join('\n') : '',
    toolResults,
    toolNames: records(body.tools).flatMap((tool) => records(tool.functionDeclarations).map((declaration) => asString(declaration.name))),
    rawBody: body,
  };
}

/** The reply as Gemini's candidates: text parts and function calls, then the finish and the usage. */
export function streamGemini(res: ServerResponse, request: ModelRequest, reply: Reply, streaming: boolean, nextCall: () => string): void {
  const parts: Part[] = replyBlocks(reply).map((block) =>
    block.type === 'text' ? { text: block.text } : { functionCall: { id: nextCall(), name: block.name, args: block.input } },
  );
  const output = replyBlocks(reply)
    .map((block) => (block.type === 'text' ? block.text : JSON.stringify(block.input)))
    .join('');
  const usageMetadata = {
    promptTokenCount: countTokens(JSON.stringify(request.messages)),
    candidatesTokenCount: countTokens(output),
    totalTokenCount: countTokens(JSON.stringify(request.messages)) + countTokens(output),
  };
  const frame = (candidateParts: Part[], last: boolean) => ({
    candidates: [{ content: { role: 'model', parts: candidateParts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    ...(last ? { usageMetadata } : {}),
    modelVersion: request.model,
  });
  if (!streaming) return sendJson(res, 200, frame(parts, true));
  startSse(res);
  // Each part a frame of its own, as the API streams; the last carries the finish and the usage.
  parts.forEach((part, i) => res.write(`data: ${JSON.stringify(frame([part], i === parts.length - 1))}\n\n`));
  if (!parts.length) res.write(`data: ${JSON.stringify(frame([{ text: '' }], true))}\n\n`);
  res.end();
}

export function sendGeminiError(res: ServerResponse, error: ReplyError): void {
  const status = error.status >= 500 ? 'INTERNAL' : error.status === 429 ? 'RESOURCE_EXHAUSTED' : 'INVALID_ARGUMENT';
  sendJson(res, error.status, { error: { code: error.status, message: error.message ?? 'mock error', status: error.type ?? status } }, error.headers);
}
