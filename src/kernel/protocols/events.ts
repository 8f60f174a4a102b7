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

/**
 * What one model call used, reported while the turn works (Claude Code's assistant messages,
 * codex's token updates): the bridge prices it as it goes, to hold work to its budget. The
 * same `messageId` again is that call's usage so far, replacing what it said before.
 */
export interface UsageEvent {
  type: 'usage';
  usage: Usage;
  model?: string;
  messageId?: string;
  /**
   * Read by the bridge's credential proxy from the API's own answer (a CLI in walls), and priced
   * by the bridge: what the work's cost is counted from, over whatever the CLI says of itself.
   * `costUsd` is absent when no price is known; `highest`: the model had none, so its provider's
   * highest price was taken.
   */
  proxy?: { costUsd?: number; highest?: boolean };
}

/**
 * The CLI's model API refused it for a limit: a plan's usage limit, the key's rate limit, or no
 * credit (quota) left. The work can go on in another CLI, or in this one once it resets.
 */
export interface QuotaLimit {
  kind: 'usage' | 'rate' | 'credit';
  /** When the limit resets (epoch ms), when the CLI says. */
  resetsAt?: number;
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
  /** The turn was refused for a quota, credit or rate limit. */
  limit?: QuotaLimit;
}

/** What became of a message sent to a CLI that takes messages while it works (see LiveInput). */
export interface InputEvent {
  type: 'input';
  id: string;
  /** `cancelled`: dropped by an interrupt, never to be answered. */
  state: 'queued' | 'started' | 'completed' | 'cancelled';
}

/**
 * A CLI with a control channel (Claude Code's `--permission-prompt-tool stdio`) asks whether a
 * tool may run; the answer goes back on its input (LiveControl.decide), and the tool waits.
 */
export interface PermissionEvent {
  type: 'permission';
  requestId: string;
  tool: string;
  input: Record<string, unknown>;
  /** The tool call it is about, when the CLI says (its tool_start came first). */
  toolUseId?: string;
}

/** The CLI answered one of the bridge's control requests (an interrupt, a mode change). */
export interface ControlEvent {
  type: 'control';
  requestId: string;
  ok: boolean;
  error?: string;
  /** After an interrupt: the messages it still holds, to run after (Claude Code's `still_queued`). */
  stillQueued?: string[];
}

/** How a permission request is answered: Claude Code's own shape, which the bridge speaks everywhere. */
export type PermissionDecision = { behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string };

/** Something went wrong that the user should see (the CLI's own error, or the bridge's about the CLI). */
export interface ErrorEvent {
  type: 'error';
  message: string;
  /** The error is a quota, credit or rate limit (a CLI that ends a turn without a result says it so). */
  limit?: QuotaLimit;
}

/** The sandbox refused a connection of the CLI or its tools (a host nobody allowed): once per host. */
export interface BlockedEvent {
  type: 'blocked';
  host: string;
  why: string;
}

/** A line we could not decode (not JSON, an unknown event): kept for logs, never fatal. */
export interface LogEvent {
  type: 'log';
  line: string;
}

/**
 * The CLI process ended. Always the last event of a turn; for a CLI kept running between
 * turns (LiveCli), the end of the turn while the process lives on, with code 0.
 */
export interface ExitEvent {
  type: 'exit';
  code: number | null;
  signal: string | null;
}

export type AgentEvent =
  | StartedEvent
  | TextEvent
  | ToolStartEvent
  | ToolEndEvent
  | UsageEvent
  | ResultEvent
  | InputEvent
  | PermissionEvent
  | ControlEvent
  | ErrorEvent
  | BlockedEvent
  | LogEvent
  | ExitEvent;
