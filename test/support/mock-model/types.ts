// Shared shapes of the mock model API: what a script sees and what it returns.

/** Which wire protocol a model request came in on. */
export type ModelApi = 'anthropic' | 'openai' | 'openai-chat' | 'gemini';

/** A tool result the CLI sent back to the model in the newest turn. */
export interface ToolResultView {
  id: string;
  content: string;
  isError: boolean;
}

/** A protocol-neutral view of one model request, handed to the script. */
export interface ModelRequest {
  api: ModelApi;
  /** 0-based ordinal of this model request since the mock started or was last reset. */
  index: number;
  model: string;
  /** Top-level system prompt (Anthropic `system`, OpenAI `instructions` + developer messages). */
  system: string;
  /** The raw conversation: Anthropic `messages` or OpenAI `input`. */
  messages: unknown[];
  /** Text of the newest user message, skipping trailing system messages and CLI-injected context. */
  lastUserText: string;
  /** Tool results carried by the newest user turn (empty on a fresh prompt). */
  toolResults: ToolResultView[];
  toolNames: string[];
  rawBody: Record<string, unknown>;
}

export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

/** One content block of a reply, for replies mixing text and tool calls in a set order. */
export type ReplyBlock = { type: 'text'; text: string } | ({ type: 'tool' } & ToolCall);

export interface ReplyError {
  status: number;
  message?: string;
  /** The API's error type (Anthropic `error.type`, OpenAI `error.type`); absent: the usual one for the status. */
  type?: string;
  /** OpenAI's `error.code` (`insufficient_quota`, `rate_limit_exceeded`). */
  code?: string;
  /** More fields of the body's `error` object (OpenAI's `resets_at` of a plan's usage limit). */
  fields?: Record<string, unknown>;
  /** Response headers the real API sends with it (`retry-after`, rate-limit resets). */
  headers?: Record<string, string>;
}

/**
 * What the model "says". `blocks` wins over `text`/`toolCalls` (which give text first).
 * `delayMs` holds the response back; `Infinity` never answers (until the client or mock closes).
 */
export interface Reply {
  text?: string;
  toolCalls?: ToolCall[];
  blocks?: ReplyBlock[];
  error?: ReplyError;
  delayMs?: number;
}

export type Script = (request: ModelRequest) => Reply | Promise<Reply>;

/** One HTTP request as the mock received it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, the raw string when it is not JSON, or undefined when empty. */
  body: unknown;
  /** Set for model requests (`/v1/messages`, `/v1/responses`). */
  model?: ModelRequest;
}
