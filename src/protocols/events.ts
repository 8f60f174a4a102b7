/**
 * The one event vocabulary. Every CLI's JSONL is decoded into these, and everything above
 * the engine (progress rendering, subagents, announcements, persistence) speaks only this.
 */

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens served from the provider's cache, when the CLI reports them. */
  cacheReadTokens?: number;
  /** Prompt tokens written to the provider's cache, when the CLI reports them. */
  cacheWriteTokens?: number;
}

/** The CLI told us which session this is; the id is what the next turn resumes. */
export interface StartedEvent {
  type: 'started';
  sessionId: string;
  model?: string;
  cwd?: string;
}

/** Assistant prose. `parentId` is set when it comes from inside the CLI's own Task subagent. */
export interface TextEvent {
  type: 'text';
  text: string;
  parentId?: string;
}

export interface ToolStartEvent {
  type: 'tool_start';
  id: string;
  name: string;
  input: unknown;
  /** Claude's parent_tool_use_id: the Task tool call this one runs inside of. */
  parentId?: string;
}

export interface ToolEndEvent {
  type: 'tool_end';
  id: string;
  isError: boolean;
  /** The start of the tool's output, for progress display. */
  preview: string;
  parentId?: string;
}

/** The turn's outcome, as the CLI reports it. */
export interface ResultEvent {
  type: 'result';
  text: string;
  isError: boolean;
  sessionId?: string;
  usage?: Usage;
  costUsd?: number;
  turns?: number;
  durationMs?: number;
  /** The ids of the messages this turn answered, for a CLI that takes messages while it works. */
  answered?: string[];
}

/** What became of a message sent to a CLI that takes messages while it works (see LiveInput). */
export interface InputEvent {
  type: 'input';
  id: string;
  state: 'queued' | 'started' | 'completed';
}

/** Something went wrong that the user should see (the CLI's own error, or the bridge's about the CLI). */
export interface ErrorEvent {
  type: 'error';
  message: string;
}

/** A line we could not decode (not JSON, an unknown event): kept for logs, never fatal. */
export interface LogEvent {
  type: 'log';
  line: string;
}

/** The CLI process ended. Always the last event of a turn. */
export interface ExitEvent {
  type: 'exit';
  code: number | null;
  signal: string | null;
}

export type AgentEvent = StartedEvent | TextEvent | ToolStartEvent | ToolEndEvent | ResultEvent | InputEvent | ErrorEvent | LogEvent | ExitEvent;

export type AgentEventType = AgentEvent['type'];
