import type { Usage } from '../../kernel/protocols/events.ts';
import { compact, isObject, jsonOf } from '../../kernel/protocols/decoder.ts';

/*
 * What a model call used, read from the API's own answer as the credential proxy passes it
 * on: a JSON body, or a stream of server-sent events. The shapes are the providers' own:
 * Anthropic's Messages (a message's `usage`; streamed, `message_start` then the running
 * totals of `message_delta`), OpenAI's Responses (`response.completed` and its kin) and Chat
 * Completions (the `usage` of the body, or of the last chunk streamed).
 */

/** The API family an answer is in: whose price table a model of unknown price falls back on. */
export type Provider = 'anthropic' | 'openai';

/** One model call, as its answer said. */
export interface ModelCall {
  provider: Provider;
  usage: Usage;
  model?: string;
  /** The API's id for it (`msg_…`, `resp_…`, `chatcmpl-…`). */
  id?: string;
}

/** The most of an answer read to meter it: a larger body or event is passed on unread. */
const MOST_READ = 16 * 1024 * 1024;

/** Reads the calls in an answer as its chunks pass; `end` gives them. Any other content type reads as no call. */
export class UsageReader {
  private readonly calls = new Map<string, ModelCall>();
  private pending = '';
  /** The call a stream is about: its later events (message_delta) name no id. */
  private current: string | undefined;
  private overflowed = false;
  private readonly stream: boolean;
  private readonly json: boolean;

  constructor(contentType: string | undefined) {
    const type = (contentType ?? '').toLowerCase();
    this.stream = type.startsWith('text/event-stream');
    this.json = type.startsWith('application/json');
  }

  take(chunk: Buffer): void {
    if ((!this.stream && !this.json) || this.overflowed) return;
    this.pending += chunk.toString('utf8');
    if (this.stream) {
      const lines = this.pending.split('\n');
      this.pending = lines.pop()!;
      for (const line of lines) if (line.startsWith('data:')) this.read(line.slice(5).trim());
    }
    if (this.pending.length > MOST_READ) {
      this.overflowed = true;
      this.pending = '';
    }
  }

  end(): ModelCall[] {
    if (this.json) this.read(this.pending);
    else if (this.stream && this.pending.startsWith('data:')) this.read(this.pending.slice(5).trim());
    this.pending = '';
    return [...this.calls.values()];
  }

  private read(text: string): void {
    const event = text.startsWith('{') ? jsonOf<Record<string, unknown>>(text) : undefined;
    const call = event && callIn(event);
    if (!call) return;
    const key = call.id ?? this.current ?? `#${this.calls.size}`;
    this.current = key;
    const before = this.calls.get(key);
    // A stream's later event for the same call carries its running totals: the larger count of each kind is the truth.
    this.calls.set(key, before ? { ...before, ...call, model: call.model ?? before.model, usage: larger(before.usage, call.usage) } : call);
  }
}

/** The call one JSON object (a body, or one event of a stream) reports, if it reports one. */
function callIn(event: Record<string, unknown>): ModelCall | undefined {
  const type = str(event.type);
  // Anthropic: a message (a body, or message_start's), then message_delta's totals.
  if (type === 'message_start') return anthropic(record(event.message));
  if (type === 'message_delta') return anthropicUsage(record(event.usage), undefined, undefined);
  if (type === 'message' || (event.usage && str(event.id)?.startsWith('msg_'))) return anthropic(event);
  // OpenAI Responses: a response (a body), or the event that ends one in a stream.
  if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed') return openAiCall(record(event.response), RESPONSES);
  if (str(event.object) === 'response') return openAiCall(event, RESPONSES);
  // OpenAI Chat Completions: a completion, or a streamed chunk carrying the usage.
  if (str(event.object)?.startsWith('chat.completion')) return openAiCall(event, CHAT_COMPLETIONS);
  return undefined;
}

function anthropic(message: Record<string, unknown> | undefined): ModelCall | undefined {
  return message && anthropicUsage(record(message.usage), str(message.model), str(message.id));
}

function anthropicUsage(usage: Record<string, unknown> | undefined, model: string | undefined, id: string | undefined): ModelCall | undefined {
  if (!usage) return undefined;
  return compact<ModelCall>({
    provider: 'anthropic',
    usage: {
      inputTokens: num(usage.input_tokens),
      outputTokens: num(usage.output_tokens),
      cacheReadTokens: num(usage.cache_read_input_tokens),
      cacheWriteTokens: num(usage.cache_creation_input_tokens),
    },
    model,
    id,
  });
}

/** How OpenAI's two APIs name the fields of an answer's usage. */
const RESPONSES = { input: 'input_tokens', output: 'output_tokens', details: 'input_tokens_details' };
const CHAT_COMPLETIONS = { input: 'prompt_tokens', output: 'completion_tokens', details: 'prompt_tokens_details' };

/** One OpenAI answer's usage. OpenAI counts cached prompt tokens inside its input tokens: taken out here, so each kind is priced once. */
function openAiCall(body: Record<string, unknown> | undefined, names: typeof RESPONSES): ModelCall | undefined {
  const usage = record(body?.usage);
  if (!usage) return undefined;
  const cached = num(record(usage[names.details])?.cached_tokens);
  return compact<ModelCall>({
    provider: 'openai',
    usage: { inputTokens: Math.max(0, num(usage[names.input]) - cached), outputTokens: num(usage[names.output]), cacheReadTokens: cached },
    model: str(body?.model),
    id: str(body?.id),
  });
}

function larger(a: Usage, b: Usage): Usage {
  return {
    inputTokens: Math.max(a.inputTokens, b.inputTokens),
    outputTokens: Math.max(a.outputTokens, b.outputTokens),
    cacheReadTokens: Math.max(a.cacheReadTokens ?? 0, b.cacheReadTokens ?? 0),
    cacheWriteTokens: Math.max(a.cacheWriteTokens ?? 0, b.cacheWriteTokens ?? 0),
  };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
