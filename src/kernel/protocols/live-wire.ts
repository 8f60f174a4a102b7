import type { AgentEvent, PermissionDecision } from './events.ts';

/** What a wire writes to and reports through: the CLI's standard input, and the turn's event stream. */
export interface WireIo {
  /** One line of the CLI's input; false when it is gone. */
  write(line: string): boolean;
  /** An event the wire learned itself (an answer to its own request), among the decoded ones. */
  emit(event: AgentEvent): void;
  /** What the operator should know of the agent itself, not of one turn (it keeps a mode of its own): the bridge's log. */
  warn?(line: string): void;
}

/** The session a wire opens when its process starts. */
export interface WireSession {
  /** The CLI's own session to continue; absent for a fresh one. */
  resumeId?: string;
  cwd: string;
  /** The chat's permission mode, for a dialect that sets it when it opens the session (codex's sandbox). */
  mode: 'bypass' | 'ask' | 'safe';
  /** It runs in the bridge's walls: a sandbox of its own would nest in them, and fail, so it is left off. */
  walled?: boolean;
  /** The bridge's MCP server, for a dialect that offers it when its session opens (ACP's `session/new`). */
  mcp?: { serverName: string; url: string; token: string; stdio?: StdioMcp };
  /** The authentication method to choose, for a dialect that asks for one (ACP's `authenticate`). */
  authMethod?: string;
  /** How long the CLI has to open its session before its turns fail. */
  openTimeoutMs?: number;
}

/**
 * The same MCP server as a program the agent starts and speaks to on its stdio: the bridge's
 * relay to its endpoint, for an agent that takes no MCP server over http. `env` holds the
 * secret (never `args`, which `ps` shows).
 */
export interface StdioMcp {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * How the bridge drives a CLI kept running between turns, in its dialect: a turn's prompt and
 * the messages that steer it, its interrupt, plan mode, and the answers to its permission
 * requests. Claude Code's is a stateless line per call; codex's app-server is a JSON-RPC
 * client that opens a thread first and names the turn at work in each steer, so a wire is an
 * object per process.
 */
export interface LiveWire {
  /**
   * A line of the CLI's output, before it is decoded: true when it was the wire's own (the
   * answer to one of its requests), which the turn never sees.
   */
  take(line: unknown): boolean;
  /** A message: the turn's prompt when none is at work, else one more into it. False when the input is gone. */
  send(text: string, id: string): boolean;
  /** End the turn at work; the process and its session stay. Answered by a `control` event of `requestId`. */
  interrupt(requestId: string): void;
  /** Enter or leave plan mode; absent on a dialect without one. */
  setPlanning?(requestId: string, planning: boolean): void;
  /** The answer to a `permission` event. */
  decide(requestId: string, decision: PermissionDecision): void;
  /** The agent's own slash commands, as it last listed them; absent on a dialect without them. */
  readonly commands?: readonly AgentCommand[];
}

/** A slash command of the agent's own (ACP's `available_commands_update`): a chat passes it through to it as its prompt. */
export interface AgentCommand {
  name: string;
  description: string;
  /** What it takes after its name, where the agent says. */
  hint?: string;
}

/** A dialect's wire, made for each process. */
export type LiveWireFactory = (io: WireIo, session: WireSession) => LiveWire;
