import type { ChatAddress } from '../ports/transport.ts';
import type { ToolPolicy } from '../policy/tool-policy.ts';
import type { PermissionMode } from '../policy/permission-mode.ts';
import type { CliAgents } from '../agents/cli-agents.ts';
import type { McpServerConfig } from '../agents/mcp-servers.ts';
import type { Requester, SubagentRunRecord } from './record.ts';

/** A run as the Spawner resolved it: every default applied, every check passed but the limits. */
export interface SpawnRequest {
  address: ChatAddress;
  requester: Requester;
  task: string;
  cli: string;
  cwd: string;
  /** 1 for a run spawned by a main session or a user; deeper for runs spawned by runs. */
  depth: number;
  timeoutSeconds: number;
  context?: string;
  label?: string;
  model?: string;
  agent?: string;
  requesterSessionId?: string;
  policy?: ToolPolicy;
  /** The mode of the chat it is spawned in, as its CLI runs it (`ask` on a CLI that cannot ask is `safe`). */
  chatMode?: PermissionMode;
  maxTurns?: number;
  agentPrompt?: string;
  /** The agents the run's own Task tool may delegate to (a CLI with `options.agents`). */
  agents?: CliAgents;
  /** MCP servers of the operator's the run's agent asked for. */
  mcpServers?: Record<string, McpServerConfig>;
  /** Run in a fresh git worktree on its own branch. */
  worktree?: boolean;
  /** The owner trusted the directory it was spawned from (/trust) and it may do more than read: its CLI may use what the repository ships. */
  trusted?: boolean;
  orchestration?: { id: string; step: string };
}

/** Why a spawn was refused, for callers that answer with codes (the API): the request was wrong, or the bridge cannot take it now. */
export type Refusal = 'invalid' | 'limit' | 'unavailable';

export type SpawnResult = { ok: true; run: SubagentRunRecord; queuePosition: number } | { ok: false; error: string; refusal?: Refusal };
